import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { listPages } from "../domain/wikis.js";
import { pageView, readableWikiGroup, wikiParams } from "./wiki-common.js";

/** Every page of the group wiki (none before the first page exists); `with_content` adds bodies. */
export const endpoint = defineEndpoint(
  { summary: "List group wiki pages", access: "public", params: wikiParams, query: z.object({ with_content: z.optional(bool()) }) },
  async ({ principal, params, query }) => {
    const group = await readableWikiGroup(principal, params.id);
    const pages = await listPages(group, query.with_content ?? false);
    // With content, each page is GitLab's full page entity (its `encoding` too); without, the short one.
    return query.with_content ? pages.map(pageView) : pages;
  },
);
export const handler = lambda(endpoint);
