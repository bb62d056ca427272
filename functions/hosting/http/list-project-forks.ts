import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { AccessLevel } from "../domain/access.js";
import { listForks } from "../domain/forks.js";
import { PROJECT_ORDERS, searchTextOf } from "../domain/project-listing.js";
import { visibleProject, type Project } from "../domain/projects.js";
import { projectDetailViews, simpleProjectView } from "../domain/project-view.js";
import { projectParams, visibility } from "./schemas.js";

/**
 * The forks of a project the caller may see, with GitLab's project list filters and orders. A
 * project's forks are one Query in its partition, read whole and filtered and ordered here.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List forks of a project",
    access: "public",
    params: projectParams,
    query: z.object({
      ...pageQuery,
      archived: z.optional(bool()),
      visibility: z.optional(visibility),
      search: z.optional(z.string().check(z.maxLength(255))),
      owned: z.optional(bool()),
      membership: z.optional(bool()),
      simple: z.optional(bool()),
      order_by: z._default(z.enum(PROJECT_ORDERS), "created_at"),
      sort: z._default(z.enum(["asc", "desc"]), "desc"),
    }),
  },
  async ({ c, principal, params, query }) => {
    const { project: source } = await visibleProject(principal, params.id);
    const minLevel = query.owned ? AccessLevel.owner : query.membership ? AccessLevel.guest : 0;
    const forks = (await listForks(principal, source.id))
      .filter(({ project: p, level }) => level >= minLevel && (query.archived === undefined || (p.archived ?? false) === query.archived))
      .filter(({ project: p }) => (!query.visibility || p.visibility === query.visibility) && (!query.search || searchTextOf(p).includes(query.search.toLowerCase())))
      .map(({ project }) => project)
      .sort(byOrder(query.order_by, query.sort === "asc"));
    const page = pageRequest(query);
    const slice = forks.slice(page.offset, page.offset + page.perPage);
    setPageHeaders(c, page, forks.length > page.offset + page.perPage, forks.length);
    const base = baseUrl(c);
    const forkedFrom = simpleProjectView(source, base);
    if (query.simple || !principal) return slice.map((p) => simpleProjectView(p, base));
    return (await projectDetailViews(principal, slice, base)).map((view) => ({ ...view, forked_from_project: forkedFrom }));
  },
);
export const handler = lambda(endpoint);

function byOrder(order: (typeof PROJECT_ORDERS)[number], ascending: boolean) {
  const key = (p: Project): string | number => {
    if (order === "name") return p.name.toLowerCase();
    if (order === "path") return p.path.toLowerCase();
    if (order === "updated_at") return p.updatedAt ?? p.lastActivityAt;
    if (order === "last_activity_at") return p.lastActivityAt;
    return p.id;
  };
  return (a: Project, b: Project) => {
    const [x, y] = [key(a), key(b)];
    const cmp = x < y ? -1 : x > y ? 1 : a.id - b.id;
    return ascending ? cmp : -cmp;
  };
}
