import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import type { User } from "../../identity/domain/users.js";
import { listSnippetsOfAuthor } from "../domain/snippets.js";
import { renderSnippet } from "./snippet-common.js";

/** The caller's own personal snippets, newest first (GitLab's `GET /snippets`). */
export const endpoint = defineEndpoint(
  { summary: "List the current user's snippets", access: "read", query: z.object({ ...pageQuery }) },
  async ({ c, principal, query }) => {
    const page = pageRequest(query);
    const { snippets, hasMore } = await listSnippetsOfAuthor(principal.user.id, page.offset, page.perPage);
    setPageHeaders(c, page, hasMore, undefined, snippets.length);
    const authors = new Map<number, Promise<User | undefined>>([[principal.user.id, Promise.resolve(principal.user)]]);
    return Promise.all(snippets.map((s) => renderSnippet(c, principal, s, authors)));
  },
);
export const handler = lambda(endpoint);
