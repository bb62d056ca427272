import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { deletePage } from "../domain/wikis.js";
import { authorOf, wikiPageParams, writableWikiGroup } from "./wiki-common.js";

/** Developer+; 204 as GitLab. The page's history stays in the wiki repository. */
export const endpoint = defineEndpoint({ summary: "Delete a group wiki page", access: "write", params: wikiPageParams }, async ({ c, principal, params }) => {
  const group = await writableWikiGroup(principal, params.id);
  await deletePage(group.id, authorOf(principal), params.slug);
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
