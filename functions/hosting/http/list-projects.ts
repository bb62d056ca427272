import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, pageQuery, positiveInt } from "../../platform/http/params.js";
import { pageRequest, setKeysetLink, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { ApiError, forbidden } from "../../platform/http/errors.js";
import { listProjects, PROJECT_ORDERS, type ProjectQuery } from "../domain/project-listing.js";
import { projectCount } from "../domain/projects.js";
import { projectDetailViews, simpleProjectView } from "../domain/project-view.js";
import { projectStatistics } from "../domain/project-statistics.js";

/**
 * GitLab's `GET /projects` filters and orders (default `created_at`, `desc`). `repository_storage` is
 * an administrator filter (GitLab: "Available for administrators only"), a Query on the storage index.
 * `pagination=keyset` is offered with `order_by=id`, as GitLab documents it: the next page is the
 * `Link` header's URL, which carries `id_after` (ascending) or `id_before` (descending).
 */
export const endpoint = defineEndpoint(
  {
    summary: "List projects",
    access: "public",
    query: z.object({
      ...pageQuery,
      repository_storage: z.optional(z.string().check(z.maxLength(64))),
      membership: z.optional(bool()),
      owned: z.optional(bool()),
      archived: z.optional(bool()),
      simple: z.optional(bool()),
      statistics: z.optional(bool()),
      search: z.optional(z.string().check(z.maxLength(255))),
      visibility: z.optional(z.enum(["private", "internal", "public"])),
      order_by: z._default(z.enum(PROJECT_ORDERS), "created_at"),
      sort: z._default(z.enum(["asc", "desc"]), "desc"),
      pagination: z.optional(z.enum(["offset", "keyset"])),
      id_after: z.optional(positiveInt()),
      id_before: z.optional(positiveInt()),
    }),
  },
  async ({ c, principal, query }) => {
    const page = pageRequest(query);
    const admin = principal?.user.admin ?? false;
    if (query.repository_storage !== undefined && !admin) throw forbidden();
    const keyset = query.pagination === "keyset";
    if (keyset && query.order_by !== "id") throw new ApiError(405, { message: "Keyset pagination is not yet available for this type of request" });
    const filters: ProjectQuery = {
      orderBy: query.order_by,
      ascending: query.sort === "asc",
      archived: query.archived,
      visibility: query.visibility,
      search: query.search || undefined,
      membership: query.membership,
      owned: query.owned,
      storage: query.repository_storage,
      idAfter: query.id_after,
      idBefore: query.id_before,
    };
    const result = await listProjects(principal, filters, keyset ? 0 : page.offset, page.perPage);
    if (keyset) {
      const last = result.projects.at(-1);
      const cursor: Record<string, string> = filters.ascending ? { id_after: String(last?.id) } : { id_before: String(last?.id) };
      setKeysetLink(c, result.hasMore && last ? cursor : undefined, ["id_after", "id_before"]);
    } else {
      setPageHeaders(c, page, result.hasMore, await cheapTotal(admin, query), result.projects.length);
    }
    const base = baseUrl(c);
    // GitLab answers anonymous callers and `simple=true` with the basic entity; statistics (sizes
    // recorded at write time) are listed for administrators, who see every project's.
    if (query.simple || !principal) return result.projects.map((p) => simpleProjectView(p, base));
    const statistics = query.statistics && admin ? await Promise.all(result.projects.map((p) => projectStatistics(p))) : undefined;
    return (await projectDetailViews(principal, result.projects, base)).map((view, i) => ({ ...view, ...(statistics ? { statistics: statistics[i] } : {}) }));
  },
);

/** `X-Total` where a counter holds it: an administrator's list of every project, unfiltered. */
async function cheapTotal(admin: boolean, q: { repository_storage?: string; membership?: boolean; owned?: boolean; archived?: boolean; search?: string; visibility?: string; id_after?: number; id_before?: number }) {
  const narrowed = q.repository_storage !== undefined || q.membership || q.owned || q.archived !== undefined || q.search || q.visibility || q.id_after !== undefined || q.id_before !== undefined;
  return admin && !narrowed ? projectCount() : undefined;
}
export const handler = lambda(endpoint);
