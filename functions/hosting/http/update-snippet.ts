import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { updateSnippet, writableSnippet } from "../domain/snippets.js";
import { renderSnippet, requireSomeChange, snippetChangesBody, snippetParams } from "./snippet-common.js";

/** Author or admin (403 for others who can see it). File actions become one commit on `main`. */
export const endpoint = defineEndpoint(
  { summary: "Update a personal snippet", access: "write", params: snippetParams, body: snippetChangesBody },
  async ({ c, principal, params, body }) => {
    requireSomeChange(body);
    const snippet = await writableSnippet(principal, params.id);
    const updated = await updateSnippet(principal, snippet, body);
    return renderSnippet(c, principal, updated);
  },
);
export const handler = lambda(endpoint);
