import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { notFound } from "../../platform/http/errors.js";
import { baseUrl } from "../../platform/http/urls.js";
import { findUser, findUserByUsername } from "../../identity/domain/users.js";
import { contributedProjectIds } from "../domain/contributions.js";
import { visibleProjects } from "../domain/projects.js";
import { orderProjects, projectOrderQuery } from "./project-list-filters.js";
import { projectDetailViews, simpleProjectView } from "../domain/project-view.js";

/**
 * GitLab's `GET /users/:user_id/contributed_projects` (id or username): the projects the user pushed
 * to (commits, branches and tags through the API or Git) or commented on in the last year
 * (`domain/contributions.ts`), as the caller may see them, with the project list's orders and
 * `X-Total`. A user with a private profile shows its contributions to itself and administrators
 * only, as GitLab's `read_user_profile` rule does. `star_count` orders as `created_at` (no stars here).
 */
export const endpoint = defineEndpoint(
  {
    summary: "List projects a user has contributed to",
    access: "public",
    params: z.object({ user_id: z.string().check(z.minLength(1), z.maxLength(255)) }),
    query: z.object({
      ...pageQuery,
      ...projectOrderQuery,
    }),
  },
  async ({ c, principal, params, query }) => {
    const user = /^\d+$/.test(params.user_id) ? await findUser(Number(params.user_id)) : await findUserByUsername(params.user_id);
    if (!user) throw notFound("User");
    const hidden = user.privateProfile && principal?.user.id !== user.id && !principal?.user.admin;
    const found = hidden ? [] : (await visibleProjects(principal, await contributedProjectIds(user.id))).map((f) => f.project);
    const page = slicePage(c, pageRequest(query), orderProjects(found, query.order_by, query.sort));
    const base = baseUrl(c);
    if (query.simple || !principal) return page.map((p) => simpleProjectView(p, base));
    return projectDetailViews(principal, page, base);
  },
);
export const handler = lambda(endpoint);
