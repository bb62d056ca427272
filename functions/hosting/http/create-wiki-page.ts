import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { createPage } from "../domain/wikis.js";
import { authorOf, pageView, wikiFormat, wikiParams, wikiTitle, writableWikiGroup } from "./wiki-common.js";

/** Developer+. The group's first page creates its wiki repository on a storage picked by weight. */
export const endpoint = defineEndpoint(
  {
    summary: "Create a group wiki page",
    access: "write",
    status: 201,
    params: wikiParams,
    body: z.object({ title: wikiTitle, content: z.string(), format: z.optional(wikiFormat) }),
  },
  async ({ principal, params, body }) => {
    const group = await writableWikiGroup(principal, params.id);
    return pageView(await createPage(group.id, authorOf(principal), { title: body.title, content: body.content, format: body.format ?? "markdown" }));
  },
);
export const handler = lambda(endpoint);
