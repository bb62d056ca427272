/**
 * Tracker (Sentry web API) JSON → GitLab's entities (GitLab's `SentryClient::Issue#map_to_error` and
 * `#map_to_detailed_error`). `count` arrives as a string (Sentry) and is sent as a number, as the
 * integrated backend does, so the UI sees the same content in both modes.
 */
type Obj = Record<string, any>;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
const num = (v: unknown) => (typeof v === "number" ? v : Number(v ?? 0) || 0);

export function errorEntity(i: Obj) {
  return {
    id: String(i.id),
    title: i.title,
    type: i.type ?? "error",
    user_count: num(i.userCount),
    count: num(i.count),
    first_seen: i.firstSeen,
    last_seen: i.lastSeen,
    message: i.metadata?.value ?? null,
    culprit: i.culprit,
    external_url: i.permalink ?? null,
    project_id: i.project?.id != null ? String(i.project.id) : null,
    project_name: i.project?.name ?? null,
    project_slug: i.project?.slug ?? null,
    short_id: i.shortId ?? null,
    status: i.status,
    frequency: Array.isArray(i.stats?.["24h"]) ? i.stats["24h"] : [],
  };
}

const release = (r: Obj | null | undefined) => ({ last_commit: r?.lastCommit?.id ?? null, short: r?.shortVersion ?? null, version: r?.version ?? null });

export function detailedEntity(i: Obj, externalBaseUrl: string | null) {
  const first = release(i.firstRelease);
  const last = release(i.lastRelease);
  const gitlab = Array.isArray(i.pluginIssues) ? i.pluginIssues.find((p: Obj) => p?.id === "gitlab") : undefined;
  return {
    ...errorEntity(i),
    external_base_url: externalBaseUrl,
    first_release_last_commit: first.last_commit,
    first_release_short_version: first.short,
    first_release_version: first.version,
    last_release_last_commit: last.last_commit,
    last_release_short_version: last.short,
    last_release_version: last.version,
    integrated: false,
    tags: { level: i.level ?? null, logger: i.logger ?? null },
    gitlab_commit: null,
    gitlab_commit_path: null,
    gitlab_issue_path: gitlab?.issue?.url ?? null,
    // The tracker's daily series when it sends one (Sentry's issue detail does); [] = nothing to chart.
    frequency_30d: Array.isArray(i.stats?.["30d"]) ? i.stats["30d"] : [],
  };
}

/** Frames of the first exception value that has a stack trace (GitLab's `ErrorEvent`). */
function framesOf(event: Obj): Obj[] {
  const entry = (event.entries as Obj[]).find((e) => e?.type === "exception");
  const values: Obj[] = Array.isArray(entry?.data?.values) ? entry.data.values : [];
  const withTrace = values.find((v) => Array.isArray(v?.stacktrace?.frames) && v.stacktrace.frames.length > 0);
  return withTrace ? withTrace.stacktrace.frames : [];
}

/** The integrated builder's shape (HTML-escaped context), plus Sentry's `inApp` flag. */
export function stackTraceEntries(event: Obj) {
  return framesOf(event).map((f) => ({
    lineNo: typeof f.lineNo === "number" ? f.lineNo : null,
    context: Array.isArray(f.context) ? f.context.filter((l: unknown) => Array.isArray(l)).map((l: unknown[]) => [Number(l[0]), escapeHtml(String(l[1] ?? ""))]) : [],
    filename: f.filename ?? null,
    abs_path: f.absPath ?? null,
    function: f.function ?? null,
    colNo: 0,
    inApp: typeof f.inApp === "boolean" ? f.inApp : null,
  }));
}

/** Environment, release and tags of the latest event (Sentry: `tags: [{key, value}]`). */
export function eventExtras(event: Obj) {
  const tags: Record<string, string> = {};
  for (const t of Array.isArray(event.tags) ? event.tags : []) if (t && typeof t.key === "string") tags[t.key] = String(t.value ?? "");
  return { environment: tags.environment ?? null, release: tags.release ?? null, tags };
}

/** The same extras from a stored (integrated) event payload, for `stack_trace.json` (lead's diff). */
export function payloadExtras(payload: Obj) {
  const raw = payload.tags;
  const pairs: Array<[string, unknown]> = Array.isArray(raw) ? raw.filter(Array.isArray).map((t: unknown[]) => [String(t[0]), t[1]]) : raw && typeof raw === "object" ? Object.entries(raw) : [];
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return { environment: text(payload.environment), release: text(payload.release), tags: Object.fromEntries(pairs.map(([k, v]) => [k, String(v)])) };
}
