import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { findSnippet } from "../domain/snippets.js";
import { snippetParams, userAgentDetail } from "./snippet-common.js";

/**
 * GitLab's `GET /snippets/:id/user_agent_detail`, for administrators: the user agent and address the
 * snippet was created from. Snippets created before this was recorded answer 404, as GitLab answers
 * for one without a detail.
 */
export const endpoint = defineEndpoint(
  { summary: "Where a snippet was created from (administrators)", access: "read", admin: true, params: snippetParams },
  async ({ params }) => {
    const snippet = await findSnippet(params.id);
    if (!snippet) throw notFound("Snippet");
    return userAgentDetail(snippet);
  },
);
export const handler = lambda(endpoint);
