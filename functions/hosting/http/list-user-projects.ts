import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery, positiveInt } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { notFound } from "../../platform/http/errors.js";
import { baseUrl } from "../../platform/http/urls.js";
import { queryAll, GSI1 } from "../../platform/db/table.js";
import { findUser } from "../../identity/domain/users.js";
import { visibleProjects, type Project } from "../domain/projects.js";
import { projectView } from "../domain/project-view.js";

/**
 * GitLab's `GET /users/:id/projects`: the projects in the user's personal namespace that the caller
 * may see, newest first. A personal project always has its owner as a member, so the user's
 * memberships index lists them.
 */
export const endpoint = defineEndpoint(
  { summary: "List a user's personal projects", access: "public", params: z.object({ user_id: positiveInt() }), query: z.object({ ...pageQuery }) },
  async ({ c, principal, params, query }) => {
    // Both reads are keyed by the id in the path: one round trip instead of two.
    const [user, memberships] = await Promise.all([
      findUser(params.user_id),
      queryAll<{ gsi1sk: string }>({ index: GSI1, pk: `USER#${params.user_id}#PROJECTS`, ascending: false }),
    ]);
    if (!user) throw notFound("User");
    const page = pageRequest(query);
    const personal = (p: Project) => p.namespace.kind === "user" && p.namespace.id === user.id;
    const projects = (await visibleProjects(principal, memberships.map((m) => Number(m.gsi1sk)), personal)).map((v) => v.project);
    setPageHeaders(c, page, projects.length > page.offset + page.perPage, projects.length);
    const admin = principal?.user.admin ?? false;
    return projects.slice(page.offset, page.offset + page.perPage).map((p) => projectView(p, baseUrl(c), { admin }));
  },
);
export const handler = lambda(endpoint);
