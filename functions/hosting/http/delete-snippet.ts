import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { deleteSnippet, writableSnippet } from "../domain/snippets.js";
import { snippetParams } from "./snippet-common.js";

/** Author or admin; 204 as GitLab. Refused with the read-only error during a storage move. */
export const endpoint = defineEndpoint({ summary: "Delete a personal snippet", access: "write", params: snippetParams, makesRoom: true }, async ({ c, principal, params }) => {
  await deleteSnippet(await writableSnippet(principal, params.id));
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
