import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { commaSeparatedIds, idArray, pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { basicUser, type User } from "../../identity/domain/users.js";
import { listAllMembers } from "../domain/members.js";
import { projectParams } from "./schemas.js";
import { container } from "./members.js";

/** GitLab's `User.search`: a part of the name or username, or the whole e-mail, in any case. */
const matches = (user: User, term: string) => [user.name, user.username].some((v) => v.toLowerCase().includes(term)) || user.email.toLowerCase() === term;

/**
 * GitLab's `GET /projects/:id/users` (`project.team.users`): everyone who reaches the project — its
 * direct members, its groups' and the groups it or they are shared with — as `members/all` counts
 * them, by user id; `search`, `skip_users`. Public projects answer without a token.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List the users of a project",
    access: "public",
    params: projectParams,
    query: z.object({ ...pageQuery, search: z.optional(z.string().check(z.maxLength(255))), skip_users: z.optional(commaSeparatedIds()) }),
  },
  async ({ c, principal, params, query }) => {
    const target = await container("project", principal, params.id);
    const skip = new Set(idArray(query.skip_users, c.req.queries("skip_users[]")));
    const term = query.search?.toLowerCase();
    const users = (await listAllMembers("project", target.id, target.groupIds, undefined, target.shares)).map((m) => m.user).filter((u) => !skip.has(u.id) && (!term || matches(u, term)));
    return slicePage(c, pageRequest(query), users).map((u) => basicUser(u, baseUrl(c)));
  },
);
export const handler = lambda(endpoint);
