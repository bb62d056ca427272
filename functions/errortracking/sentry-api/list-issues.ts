import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { publicUrl } from "../../platform/http/pagination.js";
import { STATUSES, type ErrorStatus } from "../domain/keys.js";
import { hourlyFrequency } from "../domain/frequency.js";
import { listErrors, type SortOrder } from "../domain/read.js";
import { detail, fullPathFromSlugs, trackedProject, trackerUser } from "./access.js";
import { sentryLink, trackerIssue } from "./views.js";

const SORTS: Record<string, SortOrder> = { date: "last_seen", new: "first_seen", freq: "frequency" };

/**
 * Sentry's search syntax, the part this service answers: `is:<status>`, `release:<v>`,
 * `environment:<v>` (a value with spaces in double quotes) and free text (matched against title,
 * message and culprit). Status defaults to unresolved.
 */
export function parseQuery(query: string | undefined): { status: ErrorStatus; search?: string; release?: string; environment?: string } {
  let status: ErrorStatus = "unresolved";
  const out: { release?: string; environment?: string } = {};
  const words: string[] = [];
  for (const m of (query ?? "").matchAll(/(\w+):"([^"]*)"|(\S+)/g)) {
    const [key, value] = m[1] !== undefined ? [m[1], m[2]!] : /^(\w+):(.+)$/.exec(m[3]!)?.slice(1) ?? [undefined, m[3]!];
    if (key === "is" && STATUSES.includes(value as ErrorStatus)) status = value as ErrorStatus;
    else if (key === "release" || key === "environment") out[key] = value;
    else words.push(m[0]);
  }
  return { status, search: words.join(" ") || undefined, ...out };
}

/** `GET /api/0/projects/{org}/{proj}/issues/?query&sort&limit&cursor`, paginated by `Link` (Sentry's form). */
export const endpoint = defineEndpoint(
  {
    summary: "Tracker API: list a project's issues",
    access: "public",
    params: z.object({ org: z.string().check(z.maxLength(500)), proj: z.string().check(z.maxLength(255)) }),
    query: z.object({
      query: z.optional(z.string().check(z.maxLength(500))),
      sort: z.optional(z.string()),
      limit: z.optional(z.string()),
      cursor: z.optional(z.string().check(z.maxLength(2000))),
      statsPeriod: z.optional(z.string()),
    }),
  },
  async ({ c, principal, params, query }) => {
    const project = await trackedProject(trackerUser(principal, false), fullPathFromSlugs(params.org, params.proj));
    const sort = SORTS[query.sort || "date"];
    if (!sort) throw detail(400, "Invalid sort");
    const limit = Math.min(100, Math.max(1, Number(query.limit) || 100));
    const { status, search, release, environment } = parseQuery(query.query);
    const page = await listErrors({ projectId: project.id, status, sort, cursor: query.cursor || undefined, searchTerm: search?.toLowerCase(), release, environment, limit });
    c.header("Link", sentryLink(publicUrl(c), page));
    // One bounded Query per issue on the page for its hourly counts.
    const frequencies = await Promise.all(page.errors.map((e) => hourlyFrequency(project.id, e.errorId)));
    return page.errors.map((e, i) => trackerIssue(c, project, e, frequencies[i]!));
  },
);
export const handler = lambda(endpoint);
