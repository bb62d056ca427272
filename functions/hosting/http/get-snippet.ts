import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { visibleSnippet } from "../domain/snippets.js";
import { renderSnippet, snippetParams } from "./snippet-common.js";

/** Public snippets need no token; private ones answer 404 to anyone but the author and admins. */
export const endpoint = defineEndpoint({ summary: "One snippet", access: "public", params: snippetParams }, async ({ c, principal, params }) => {
  const { snippet } = await visibleSnippet(principal, params.id);
  return renderSnippet(c, principal, snippet);
});
export const handler = lambda(endpoint);
