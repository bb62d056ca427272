import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageRequest } from "../../platform/http/pagination.js";
import { listPublicSnippets } from "../domain/snippet-lists.js";
import { answerSnippetPage, createdRange, snippetListQuery } from "./snippet-list-query.js";

/** GitLab's `GET /snippets/public`: everyone's public personal snippets, newest first (signed-in callers, as GitLab's `authenticate!`). */
export const endpoint = defineEndpoint(
  { summary: "List all public snippets", access: "read", query: z.object(snippetListQuery) },
  async ({ c, principal, query }) => {
    const page = pageRequest(query);
    return answerSnippetPage(c, principal, page, await listPublicSnippets(createdRange(query), page.offset, page.perPage));
  },
);
export const handler = lambda(endpoint);
