/**
 * The events of an error as the UI JSON gives them, built from Sentry's event shape: the integrated
 * backend's events pass through `trackerEvent` (the tracker API this service offers) and a
 * third-party tracker's come as its API answers them, so both read the same from here.
 */
import { stackTraceEntries } from "../thirdparty/mapping.js";

type Obj = Record<string, any>;

const tag = (e: Obj, key: string): string | null => (Array.isArray(e.tags) ? e.tags.find((t: Obj) => t?.key === key)?.value ?? null : null);

/** `id:…`, `email:…`, … as Sentry labels a user, or null. */
function userLabel(u: Obj | null | undefined): string | null {
  if (!u) return null;
  for (const k of ["id", "username", "email", "ip_address"]) if (u[k]) return `${k === "ip_address" ? "ip" : k}:${u[k]}`;
  return null;
}

const entry = (e: Obj, type: string): Obj | undefined => (Array.isArray(e.entries) ? e.entries.find((x: Obj) => x?.type === type)?.data : undefined);

/** One row of an error's event list. */
export function eventSummary(e: Obj) {
  return {
    event_id: String(e.eventID ?? e.id),
    date_created: e.dateCreated ?? null,
    date_received: e.dateReceived ?? null,
    title: e.title ?? null,
    message: e.message || null,
    level: tag(e, "level"),
    release: tag(e, "release"),
    environment: tag(e, "environment"),
    user: userLabel(e.user),
  };
}

/** One event in full: who, where, what led to it, and its stack trace (GitLab's frame shape). */
export function eventDetail(e: Obj) {
  const request = entry(e, "request");
  const contexts = e.contexts && typeof e.contexts === "object" ? e.contexts : {};
  return {
    ...eventSummary(e),
    issue_id: e.groupID !== undefined ? String(e.groupID) : null,
    culprit: e.culprit ?? null,
    platform: e.platform ?? null,
    user: e.user ?? null,
    tags: Array.isArray(e.tags) ? e.tags.filter((t: Obj) => t && typeof t.key === "string").map((t: Obj) => ({ key: t.key, value: String(t.value ?? "") })) : [],
    contexts: Object.entries(contexts as Obj)
      .filter(([, v]) => v && typeof v === "object")
      .map(([name, v]) => ({ name, values: Object.entries(v as Obj).filter(([k, x]) => k !== "type" && x !== null && x !== undefined).map(([k, x]) => [k, typeof x === "string" ? x : JSON.stringify(x)]) })),
    request: request ? { method: request.method ?? null, url: request.url ?? null, query: request.query ?? [], headers: request.headers ?? [], data: request.data ?? null } : null,
    breadcrumbs: (entry(e, "breadcrumbs")?.values ?? []).map((b: Obj) => ({ timestamp: b.timestamp ?? null, category: b.category ?? null, level: b.level ?? null, message: b.message ?? null, type: b.type ?? null })),
    sdk: e.sdk ?? null,
    stack_trace_entries: Array.isArray(e.entries) ? stackTraceEntries(e) : [],
  };
}
