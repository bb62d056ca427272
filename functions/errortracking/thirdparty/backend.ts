/**
 * The UI JSON of a project whose backend is a third-party tracker: the same GitLab entities the
 * integrated handlers answer (`functions/errortracking/http/*`), filled from the tracker's web API.
 * Tracker failures become GitLab's `{message}` answers: 400, or 500 for missing keys (B.8).
 */
import { ApiError } from "../../platform/http/errors.js";
import type { ErrorTrackingSetting } from "../domain/contracts.js";
import { sentryExternalUrl } from "../domain/settings.js";
import { TrackerError } from "./client.js";
import { decryptSecret } from "./secret.js";
import { getIssue, getProjectEvent, hostOf, latestEvent, listIssueEvents, listIssues, slugsOf, updateIssue } from "./sentry.js";
import { eventDetail, eventSummary } from "../http/event-views.js";
import { detailedEntity, errorEntity, eventExtras, stackTraceEntries } from "./mapping.js";

export interface TrackerConnection {
  apiUrl: string;
  token: string;
  externalUrl: string | null;
}

/** Only for an enabled, non-integrated setting that has its URL and token. */
export function connectionOf(setting: ErrorTrackingSetting): TrackerConnection {
  if (!setting.apiUrl || !setting.tokenCiphertext) throw new ApiError(400, { message: "Error Tracking is not enabled" });
  return { apiUrl: setting.apiUrl, token: decryptSecret(setting.tokenCiphertext), externalUrl: sentryExternalUrl(setting) };
}

export const isThirdParty = (s: ErrorTrackingSetting | undefined): s is ErrorTrackingSetting => !!s && s.enabled && !s.integrated;

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof TrackerError)) throw err;
    throw new ApiError(err.kind === "keys" ? 500 : 400, { message: err.message });
  }
}

/** GitLab's `ensure_issue_belongs_to_project!`: an issue of another tracker project is not found. */
function ensureOwn(conn: TrackerConnection, issue: Record<string, any>) {
  const slug = slugsOf(conn.apiUrl)?.project;
  if (slug && issue.project?.slug !== slug) throw new ApiError(404, { message: "404 Error Not Found" });
}

/** GitLab's `pagination`: a relation only when that page exists. */
export const gitlabPagination = (p: { next?: string; previous?: string }) => ({
  ...(p.next ? { next: { cursor: p.next } } : {}),
  ...(p.previous ? { previous: { cursor: p.previous } } : {}),
});

export function listErrors(conn: TrackerConnection, q: { status: string; sort: string; searchTerm?: string; cursor?: string; limit?: number; release?: string; environment?: string }) {
  return guarded(async () => {
    const page = await listIssues(conn.apiUrl, conn.token, { status: q.status, search: q.searchTerm, sort: q.sort, cursor: q.cursor, limit: q.limit ?? 20, release: q.release, environment: q.environment });
    return {
      errors: page.issues.map(errorEntity),
      pagination: gitlabPagination(page.pagination),
      external_url: conn.externalUrl,
    };
  });
}

export function errorDetails(conn: TrackerConnection, issueId: number | string) {
  return guarded(async () => {
    const issue = await getIssue(hostOf(conn.apiUrl), conn.token, String(issueId));
    ensureOwn(conn, issue);
    return { error: detailedEntity(issue, conn.externalUrl) };
  });
}

export function stackTrace(conn: TrackerConnection, issueId: number | string) {
  return guarded(async () => {
    const host = hostOf(conn.apiUrl);
    ensureOwn(conn, await getIssue(host, conn.token, String(issueId)));
    const event = await latestEvent(host, conn.token, String(issueId));
    return { error: { issue_id: String(event.groupID ?? issueId), date_received: event.dateReceived, stack_trace_entries: stackTraceEntries(event), ...eventExtras(event) } };
  });
}

export function errorEvents(conn: TrackerConnection, issueId: number | string, cursor?: string) {
  return guarded(async () => {
    const host = hostOf(conn.apiUrl);
    ensureOwn(conn, await getIssue(host, conn.token, String(issueId)));
    const page = await listIssueEvents(host, conn.token, String(issueId), cursor);
    return {
      events: page.events.map(eventSummary),
      pagination: gitlabPagination(page.pagination),
    };
  });
}

export function errorEvent(conn: TrackerConnection, issueId: number | string, eventId: string) {
  return guarded(async () => {
    const event = await getProjectEvent(conn.apiUrl, conn.token, eventId);
    // An event of another issue (or of another project of the tracker) is not this error's.
    if (String(event.groupID ?? "") !== String(issueId)) throw new ApiError(404, { message: "404 Event Not Found" });
    return { event: eventDetail(event) };
  });
}

export function updateStatus(conn: TrackerConnection, issueId: number | string, status: string) {
  return guarded(async () => {
    const host = hostOf(conn.apiUrl);
    ensureOwn(conn, await getIssue(host, conn.token, String(issueId)));
    const out = await updateIssue(host, conn.token, String(issueId), status);
    return { result: { status: "success", updated: out.status === status, closed_issue_iid: null } };
  });
}
