import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { withReservedSpace } from "../../platform/space-reserve.js";
import { deleteSnippet, writableSnippet } from "../domain/snippets.js";
import { snippetParams } from "./snippet-common.js";

/** Author or admin; 204 as GitLab. Refused with the read-only error during a storage move. */
export const endpoint = defineEndpoint({ summary: "Delete a personal snippet", access: "write", params: snippetParams }, async ({ c, principal, params }) => {
  const snippet = await writableSnippet(principal, params.id);
  await withReservedSpace(() => deleteSnippet(snippet)); // how room is made: with the space reserve
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
