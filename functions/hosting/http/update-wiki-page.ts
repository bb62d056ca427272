import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { paramError } from "../../platform/http/errors.js";
import { updatePage } from "../domain/wikis.js";
import { authorOf, pageView, wikiFormat, wikiPageParams, wikiTitle, writableWikiGroup } from "./wiki-common.js";

/** Developer+. A new title renames the page (and its slug), as on GitLab. */
export const endpoint = defineEndpoint(
  {
    summary: "Update a group wiki page",
    access: "write",
    params: wikiPageParams,
    body: z.object({ title: z.optional(wikiTitle), content: z.optional(z.string()), format: z.optional(wikiFormat) }),
  },
  async ({ principal, params, body }) => {
    if (body.title === undefined && body.content === undefined && body.format === undefined) {
      throw paramError("content, title, format are missing, at least one parameter must be provided");
    }
    const group = await writableWikiGroup(principal, params.id);
    return pageView(await updatePage(group.id, authorOf(principal), params.slug, body));
  },
);
export const handler = lambda(endpoint);
