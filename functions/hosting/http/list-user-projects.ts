import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery, positiveInt } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { notFound } from "../../platform/http/errors.js";
import { baseUrl } from "../../platform/http/urls.js";
import { findUser } from "../../identity/domain/users.js";
import { listPersonalProjects } from "../domain/personal-projects.js";
import { projectDetailViews } from "../domain/project-view.js";

/** GitLab's `GET /users/:id/projects`: the projects in the user's personal namespace that the caller may see, newest first. */
export const endpoint = defineEndpoint(
  { summary: "List a user's personal projects", access: "public", params: z.object({ user_id: positiveInt() }), query: z.object({ ...pageQuery }) },
  async ({ c, principal, params, query }) => {
    const page = pageRequest(query);
    // Both reads are keyed by the id in the path: one round trip instead of two. An unknown user has
    // no entries, so nothing more is read for it.
    const [user, listed] = await Promise.all([findUser(params.user_id), listPersonalProjects(principal, params.user_id, { offset: page.offset, limit: page.perPage })]);
    if (!user) throw notFound("User");
    setPageHeaders(c, page, listed.total > page.offset + page.perPage, listed.total);
    return projectDetailViews(principal, listed.projects, baseUrl(c));
  },
);
export const handler = lambda(endpoint);
