import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { basicUser, findUserByUsername, fullUser, listUsers } from "../domain/users.js";

/** Administrators see full records; other users the basic view (GitLab's `UserBasic`). */
export const endpoint = defineEndpoint(
  {
    summary: "List users",
    access: "read_user",
    query: z.object({ ...pageQuery, username: z.optional(z.string().check(z.maxLength(255))) }),
  },
  async ({ c, principal, query }) => {
    const view = principal.user.admin ? fullUser : basicUser;
    const page = pageRequest(query);
    if (query.username !== undefined) {
      const user = await findUserByUsername(query.username);
      setPageHeaders(c, page, false, user ? 1 : 0);
      return user && page.page === 1 ? [view(user, baseUrl(c))] : [];
    }
    const { users, hasMore } = await listUsers(page.offset, page.perPage);
    setPageHeaders(c, page, hasMore);
    return users.map((u) => view(u, baseUrl(c)));
  },
);
export const handler = lambda(endpoint);
