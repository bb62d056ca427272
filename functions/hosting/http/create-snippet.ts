import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { requestOrigin } from "../../platform/http/request-origin.js";
import { createSnippet } from "../domain/snippets.js";
import { newSnippetBody, newSnippetFiles, renderSnippet } from "./snippet-common.js";

/** Any user with `api` scope. */
export const endpoint = defineEndpoint(
  { summary: "Create a personal snippet", access: "write", status: 201, body: newSnippetBody },
  async ({ c, principal, body }) => {
    const files = newSnippetFiles(body);
    const snippet = await createSnippet(principal, { title: body.title, description: body.description, visibility: body.visibility, files, createdFrom: requestOrigin(c) });
    return renderSnippet(c, principal, snippet);
  },
);
export const handler = lambda(endpoint);
