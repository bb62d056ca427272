import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { queryPage, GSI2 } from "../../platform/db/table.js";
import { adminUser, basicUser, findUserByUsername, listUsers, searchUsers, toUser, type User } from "../domain/users.js";

/**
 * Administrators see full records; other users the basic view (GitLab's `UserBasic`). Filters as
 * GitLab's: `username` (exact), `search` (username, name, and e-mail for administrators),
 * `blocked=true` (blocked users only; `false` filters nothing, as in GitLab).
 */
export const endpoint = defineEndpoint(
  {
    summary: "List users",
    access: "read_user",
    query: z.object({
      ...pageQuery,
      username: z.optional(z.string().check(z.maxLength(255))),
      search: z.optional(z.string().check(z.maxLength(255))),
      blocked: z.optional(bool()),
    }),
  },
  async ({ c, principal, query }) => {
    const view = principal.user.admin ? adminUser : basicUser;
    const page = pageRequest(query);
    if (query.username !== undefined) {
      const user = await findUserByUsername(query.username);
      setPageHeaders(c, page, false, user ? 1 : 0);
      return user && page.page === 1 ? [view(user, baseUrl(c))] : [];
    }
    if (query.search !== undefined) {
      const found = (await searchUsers(query.search, principal.user.admin)).filter((u) => query.blocked !== true || u.state === "blocked");
      const slice = found.slice(page.offset, page.offset + page.perPage);
      setPageHeaders(c, page, found.length > page.offset + page.perPage, found.length);
      return slice.map((u) => view(u, baseUrl(c)));
    }
    if (query.blocked === true) {
      const blocked = await queryPage<User>({ index: GSI2, pk: "USERS#blocked", ascending: true, offset: page.offset, limit: page.perPage });
      setPageHeaders(c, page, blocked.hasMore, undefined, blocked.items.length);
      return blocked.items.map((u) => view(toUser(u), baseUrl(c)));
    }
    const { users, hasMore } = await listUsers(page.offset, page.perPage);
    setPageHeaders(c, page, hasMore, undefined, users.length);
    return users.map((u) => view(u, baseUrl(c)));
  },
);
export const handler = lambda(endpoint);
