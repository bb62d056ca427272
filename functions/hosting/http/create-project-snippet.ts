import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { requestOrigin } from "../../platform/http/request-origin.js";
import { projectForNewSnippet } from "../domain/project-snippets.js";
import { createSnippet } from "../domain/snippets.js";
import { newSnippetBody, newSnippetFiles, renderProjectSnippet } from "./snippet-common.js";
import { projectParams } from "./schemas.js";

/** Reporter or above, with the project's snippets feature on; a repository of its own, like a personal snippet. */
export const endpoint = defineEndpoint(
  { summary: "Create a project snippet", access: "write", status: 201, params: projectParams, body: newSnippetBody },
  async ({ c, principal, params, body }) => {
    const { project } = await projectForNewSnippet(principal, params.id);
    const files = newSnippetFiles(body);
    const snippet = await createSnippet(principal, {
      title: body.title,
      description: body.description,
      visibility: body.visibility,
      files,
      createdFrom: requestOrigin(c),
      projectId: project.id,
    });
    return renderProjectSnippet(c, principal, project, snippet);
  },
);
export const handler = lambda(endpoint);
