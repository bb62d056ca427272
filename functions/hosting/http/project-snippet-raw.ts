import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { visibleProjectSnippet } from "../domain/project-snippets.js";
import { readSnippetFile, snippetFiles, SNIPPET_BRANCH } from "../domain/snippets.js";
import { projectSnippetParams } from "./snippet-common.js";
import { rawText } from "./raw-content.js";

/** The first file's content, as GitLab's `GET /projects/:id/snippets/:snippet_id/raw`. */
export const endpoint = defineEndpoint({ summary: "Raw content of a project snippet's first file", access: "public", params: projectSnippetParams }, async ({ c, principal, params }) => {
  const { snippet } = await visibleProjectSnippet(principal, params.id, params.snippet_id);
  const [first] = await snippetFiles(snippet);
  const content = first === undefined ? undefined : await readSnippetFile(snippet, SNIPPET_BRANCH, first);
  if (!content) throw notFound("File");
  return rawText(c, content, first);
});
export const handler = lambda(endpoint);
