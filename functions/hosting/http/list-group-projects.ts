import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { visibleGroup } from "../domain/groups.js";
import { groupProjects } from "../domain/group-projects.js";
import type { Project } from "../domain/projects.js";
import { PROJECT_ORDERS, sortValue } from "../domain/project-listing.js";
import { keepProject, orderProjects, projectFilterQuery, projectOrderQuery } from "./project-list-filters.js";
import { projectDetailViews, simpleProjectView } from "../domain/project-view.js";
import { AccessLevel } from "../domain/access.js";
import { accessLevel, groupParams } from "./schemas.js";

/**
 * GitLab's `GET /groups/:id/projects`: the group's projects (`include_subgroups`: and its
 * subgroups'), and those shared with it (`with_shared`, default true), that the caller can see, with
 * the project list's filters and orders and `X-Total`. No project has topics or stars here, so
 * `topic` and `starred=true` find none and `star_count` orders as `created_at`; `similarity` ranks a
 * name equal to `search`, then starting with it, then containing it, each by name (by name alone
 * without `search`, `sort` ignored, as GitLab). Anonymous callers get the simple entity.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List a group's projects",
    access: "public",
    params: groupParams,
    query: z.object({
      ...pageQuery,
      ...projectFilterQuery,
      ...projectOrderQuery,
      order_by: z._default(z.enum([...PROJECT_ORDERS, "similarity", "star_count"]), "created_at"),
      owned: z.optional(bool()),
      starred: z.optional(bool()),
      topic: z.optional(z.string().check(z.maxLength(255))),
      with_shared: z._default(bool(), true),
      include_subgroups: z._default(bool(), false),
      min_access_level: z.optional(accessLevel()),
      with_custom_attributes: z.optional(bool()),
      with_security_reports: z.optional(bool()),
    }),
  },
  async ({ c, principal, params, query }) => {
    const { group, level } = await visibleGroup(principal, params.id);
    const term = query.search?.toLowerCase();
    const keep = keepProject(query);
    const none = query.starred || !!query.topic?.trim() || (query.owned && !principal);
    const least = Math.max(query.owned ? AccessLevel.owner : 0, query.min_access_level ?? 0);
    const found = none ? [] : await groupProjects(principal, group, level, { subgroups: query.include_subgroups, shared: query.with_shared, keep, minAccessLevel: least || undefined });
    const page = slicePage(c, pageRequest(query), order(found, query.order_by, query.sort, term));
    const base = baseUrl(c);
    if (query.simple || !principal) return page.map((p) => simpleProjectView(p, base));
    return projectDetailViews(principal, page, base);
  },
);
export const handler = lambda(endpoint);

type Order = (typeof PROJECT_ORDERS)[number] | "similarity" | "star_count";

function order(projects: Project[], by: Order, sort: "asc" | "desc", term: string | undefined): Project[] {
  if (by === "similarity") {
    const rank = (p: Project) => {
      const name = p.name.toLowerCase();
      return !term ? 0 : name === term ? 0 : name.startsWith(term) ? 1 : name.includes(term) ? 2 : 3;
    };
    return projects.sort((a, b) => rank(a) - rank(b) || (sortValue(a, "name") < sortValue(b, "name") ? -1 : 1));
  }
  return orderProjects(projects, by, sort);
}
