import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { forbidden } from "../../platform/http/errors.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageRequest } from "../../platform/http/pagination.js";
import { listAllSnippetsAsAdmin, listAllSnippetsForUser } from "../domain/snippet-lists.js";
import { answerSnippetPage, createdRange, snippetListQuery } from "./snippet-list-query.js";

/**
 * GitLab's `GET /snippets/all`: every snippet the caller may see, personal and project, newest first;
 * an administrator's is every snippet, and may be narrowed to one `repository_storage` (administrators
 * only, 403 for others, as the project list's filter).
 */
export const endpoint = defineEndpoint(
  {
    summary: "List all snippets the current user has access to",
    access: "read",
    query: z.object({ ...snippetListQuery, repository_storage: z.optional(z.string().check(z.minLength(1), z.maxLength(255))) }),
  },
  async ({ c, principal, query }) => {
    const page = pageRequest(query);
    const range = createdRange(query);
    if (query.repository_storage !== undefined && !principal.user.admin) throw forbidden();
    const listed = principal.user.admin
      ? await listAllSnippetsAsAdmin(range, query.repository_storage, page.offset, page.perPage)
      : await listAllSnippetsForUser(principal, range, page.offset, page.perPage);
    return answerSnippetPage(c, principal, page, listed);
  },
);
export const handler = lambda(endpoint);
