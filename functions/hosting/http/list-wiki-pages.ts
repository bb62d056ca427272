import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { listPages } from "../domain/wikis.js";
import { readableWikiGroup, wikiParams } from "./wiki-common.js";

/** Every page of the group wiki (none before the first page exists); `with_content` adds bodies. */
export const endpoint = defineEndpoint(
  { summary: "List group wiki pages", access: "public", params: wikiParams, query: z.object({ with_content: z.optional(bool()) }) },
  async ({ principal, params, query }) => {
    const group = await readableWikiGroup(principal, params.id);
    return listPages(group, query.with_content ?? false);
  },
);
export const handler = lambda(endpoint);
