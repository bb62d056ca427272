import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { visibleProjectSnippet } from "../domain/project-snippets.js";
import { projectSnippetParams, userAgentDetail } from "./snippet-common.js";

/** Administrators: where a project snippet was created from (see the personal snippets' route). */
export const endpoint = defineEndpoint(
  { summary: "Where a project snippet was created from (administrators)", access: "read", admin: true, params: projectSnippetParams },
  async ({ principal, params }) => userAgentDetail((await visibleProjectSnippet(principal, params.id, params.snippet_id)).snippet),
);
export const handler = lambda(endpoint);
