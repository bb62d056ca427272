import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { visibleProjectSnippet } from "../domain/project-snippets.js";
import { projectSnippetParams, renderProjectSnippet } from "./snippet-common.js";

/** One snippet of the project (`domain/project-snippets.ts` says who sees it). */
export const endpoint = defineEndpoint({ summary: "One project snippet", access: "public", params: projectSnippetParams }, async ({ c, principal, params }) => {
  const { project, snippet } = await visibleProjectSnippet(principal, params.id, params.snippet_id);
  return renderProjectSnippet(c, principal, project, snippet);
});
export const handler = lambda(endpoint);
