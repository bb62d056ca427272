import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { readSnippetFile, snippetFiles, SNIPPET_BRANCH, visibleSnippet } from "../domain/snippets.js";
import { snippetParams } from "./snippet-common.js";
import { rawText } from "./raw-content.js";

/** The first file's content (GitLab's single-file legacy view of a snippet). */
export const endpoint = defineEndpoint({ summary: "Raw content of a snippet's first file", access: "public", params: snippetParams }, async ({ c, principal, params }) => {
  const { snippet } = await visibleSnippet(principal, params.id);
  const [first] = await snippetFiles(snippet);
  const content = first === undefined ? undefined : await readSnippetFile(snippet, SNIPPET_BRANCH, first);
  if (!content) throw notFound("File");
  return rawText(c, content, first);
});
export const handler = lambda(endpoint);
