import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { withReservedSpace } from "../../platform/space-reserve.js";
import { writableProjectSnippet } from "../domain/project-snippets.js";
import { deleteSnippet } from "../domain/snippets.js";
import { projectSnippetParams } from "./snippet-common.js";

/** The author, Maintainers and above; 204. Refused with the read-only error during a storage move. */
export const endpoint = defineEndpoint({ summary: "Delete a project snippet", access: "write", params: projectSnippetParams }, async ({ c, principal, params }) => {
  const { snippet } = await writableProjectSnippet(principal, params.id, params.snippet_id);
  await withReservedSpace(() => deleteSnippet(snippet)); // how room is made: with the space reserve
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
