import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { visibleGroup } from "../domain/groups.js";
import { visibleProjects, type Project } from "../domain/projects.js";
import { sharesWithGroup } from "../domain/project-shares.js";
import { PROJECT_ORDERS, searchTextOf, sortValue } from "../domain/project-listing.js";
import { projectDetailViews, simpleProjectView } from "../domain/project-view.js";
import { accessLevel, groupParams, visibility } from "./schemas.js";

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
      archived: z.optional(bool()),
      visibility: z.optional(visibility),
      search: z.optional(z.string().check(z.maxLength(255))),
      order_by: z._default(z.enum([...PROJECT_ORDERS, "star_count"]), "created_at"),
      sort: z._default(z.enum(["asc", "desc"]), "desc"),
      simple: z.optional(bool()),
      starred: z.optional(bool()),
      with_issues_enabled: z.optional(bool()),
      with_merge_requests_enabled: z.optional(bool()),
      min_access_level: z.optional(accessLevel()),
      with_custom_attributes: z.optional(bool()),
    }),
  },
  async ({ c, principal, params, query }) => {
    const { group } = await visibleGroup(principal, params.id);
    const term = query.search?.toLowerCase();
    const keep = (p: Project) =>
      (query.archived === undefined || (p.archived ?? false) === query.archived) &&
      (!query.visibility || p.visibility === query.visibility) &&
      (!term || searchTextOf(p).includes(term)) &&
      (!query.with_issues_enabled || p.features.issues_access_level !== "disabled") &&
      (!query.with_merge_requests_enabled || p.features.merge_requests_access_level !== "disabled");
    const ids = query.starred ? [] : (await sharesWithGroup(group.id)).map((s) => s.projectId);
    const found = (await visibleProjects(principal, ids, keep)).filter((f) => f.level >= (query.min_access_level ?? 0)).map((f) => f.project);
    const order = query.order_by === "star_count" ? "created_at" : query.order_by;
    const ordered = found.sort((a, b) => (sortValue(a, order) < sortValue(b, order) ? -1 : 1) * (query.sort === "asc" ? 1 : -1));
    const page = slicePage(c, pageRequest(query), ordered);
    const base = baseUrl(c);
    if (query.simple || !principal) return page.map((p) => simpleProjectView(p, base));
    return projectDetailViews(principal, page, base);
  },
);
export const handler = lambda(endpoint);
