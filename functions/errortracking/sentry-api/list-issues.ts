import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { publicUrl } from "../../platform/http/pagination.js";
import { STATUSES, type ErrorStatus } from "../domain/keys.js";
import { hourlyFrequency } from "../domain/frequency.js";
import { listErrors, type SortOrder } from "../domain/read.js";
import { detail, fullPathFromSlugs, trackedProject, trackerUser } from "./access.js";
import { trackerIssue } from "./views.js";

const SORTS: Record<string, SortOrder> = { date: "last_seen", new: "first_seen", freq: "frequency" };

/** `is:<status> free text` → status (default unresolved) and search term. */
export function parseQuery(query: string | undefined): { status: ErrorStatus; search?: string } {
  let status: ErrorStatus = "unresolved";
  const words: string[] = [];
  for (const w of (query ?? "").split(/\s+/).filter(Boolean)) {
    const m = /^is:(\w+)$/.exec(w);
    if (m && STATUSES.includes(m[1] as ErrorStatus)) status = m[1] as ErrorStatus;
    else words.push(w);
  }
  return { status, search: words.join(" ") || undefined };
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
    const { status, search } = parseQuery(query.query);
    const page = await listErrors({ projectId: project.id, status, sort, cursor: query.cursor || undefined, searchTerm: search?.toLowerCase(), limit });
    const self = publicUrl(c);
    const link = (rel: string, cursor: string | undefined) => {
      const u = new URL(self);
      u.searchParams.set("cursor", cursor ?? "");
      return `<${u}>; rel="${rel}"; results="${cursor ? "true" : "false"}"; cursor="${cursor ?? ""}"`;
    };
    c.header("Link", `${link("previous", page.previous)}, ${link("next", page.next)}`);
    // One bounded Query per issue on the page for its hourly counts.
    const frequencies = await Promise.all(page.errors.map((e) => hourlyFrequency(project.id, e.errorId)));
    return page.errors.map((e, i) => trackerIssue(c, project, e, frequencies[i]!));
  },
);
export const handler = lambda(endpoint);
