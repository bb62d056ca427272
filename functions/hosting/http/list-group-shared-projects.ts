import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { visibleGroup } from "../domain/groups.js";
import { visibleProjects } from "../domain/projects.js";
import { sharesWithGroup } from "../domain/project-shares.js";
import { keepProject, orderProjects, projectFilterQuery, projectOrderQuery } from "./project-list-filters.js";
import { projectDetailViews, simpleProjectView } from "../domain/project-view.js";
import { accessLevel, groupParams } from "./schemas.js";

/**
 * GitLab's `GET /groups/:id/projects/shared`: the projects shared with the group that the caller can
 * see, with the project list's filters; `starred` finds none (projects are not starred here) and
 * `star_count` orders as `created_at` (every count is 0). Anonymous callers get the simple entity.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List the projects shared with a group",
    access: "public",
    params: groupParams,
    query: z.object({
      ...pageQuery,
      ...projectFilterQuery,
      ...projectOrderQuery,
      starred: z.optional(bool()),
      min_access_level: z.optional(accessLevel()),
      with_custom_attributes: z.optional(bool()),
    }),
  },
  async ({ c, principal, params, query }) => {
    const { group } = await visibleGroup(principal, params.id);
    const ids = query.starred ? [] : (await sharesWithGroup(group.id)).map((s) => s.projectId);
    const found = (await visibleProjects(principal, ids, keepProject(query))).filter((f) => f.level >= (query.min_access_level ?? 0)).map((f) => f.project);
    const page = slicePage(c, pageRequest(query), orderProjects(found, query.order_by, query.sort));
    const base = baseUrl(c);
    if (query.simple || !principal) return page.map((p) => simpleProjectView(p, base));
    return projectDetailViews(principal, page, base);
  },
);
export const handler = lambda(endpoint);
