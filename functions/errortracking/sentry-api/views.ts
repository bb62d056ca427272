/** Integrated data in the Sentry web API's field names (what GitLab's `SentryClient` reads, B.9). */
import type { Context } from "hono";
import { baseUrl } from "../../platform/http/urls.js";
import { fullPathOf, type Project } from "../../hosting/domain/projects.js";
import type { ErrorItem, StoredEvent } from "../domain/errors.js";
import type { Frequency } from "../domain/frequency.js";
import { exceptionValues, framesOf, messageOf, userIdentity } from "../domain/event.js";
import { eventTags } from "../domain/tags.js";
import { titleOf } from "../http/views.js";
import { orgSlugOf } from "./access.js";

type Obj = Record<string, unknown>;

export function trackerProject(p: Project) {
  return {
    id: String(p.id),
    slug: p.path,
    name: p.name,
    status: "active",
    platform: null,
    dateCreated: p.createdAt,
    organization: { id: String(p.namespace.id), slug: orgSlugOf(p), name: p.namespace.name },
  };
}

/** Sentry's pagination header: both relations always present, `results` says whether the page exists. */
export function sentryLink(self: string | URL, page: { previous?: string; next?: string }): string {
  const link = (rel: string, cursor: string | undefined) => {
    const u = new URL(self);
    u.searchParams.set("cursor", cursor ?? "");
    return `<${u}>; rel="${rel}"; results="${cursor ? "true" : "false"}"; cursor="${cursor ?? ""}"`;
  };
  return `${link("previous", page.previous)}, ${link("next", page.next)}`;
}

const release = (v: string | undefined) => (v ? { version: v, shortVersion: v, lastCommit: null } : null);

/**
 * Sentry's issue; `stats["24h"]` is the error's events per hour over the last 24 hours, and the
 * issue detail adds `stats["30d"]`, its events per day over the last 30 days (as Sentry's does).
 */
export function trackerIssue(c: Context, project: Project, e: ErrorItem, frequency: Frequency, daily?: Frequency) {
  return {
    id: String(e.errorId),
    shortId: `${project.path.toUpperCase()}-${e.errorId.toString(36).toUpperCase()}`,
    title: titleOf(e),
    culprit: e.actor,
    permalink: `${baseUrl(c)}/${fullPathOf(project)}/-/error_tracking/${e.errorId}/details`,
    logger: null,
    level: e.level ?? "error",
    status: e.status,
    type: e.type,
    count: String(e.eventsCount),
    userCount: e.userCount ?? 0,
    firstSeen: e.firstSeen,
    lastSeen: e.lastSeen,
    metadata: { type: e.name, value: e.description },
    project: { id: String(project.id), name: project.name, slug: project.path },
    stats: { "24h": frequency, ...(daily ? { "30d": daily } : {}) },
    firstRelease: release(e.firstRelease),
    lastRelease: release(e.lastRelease),
    annotations: [] as string[],
    pluginIssues: [] as unknown[],
  };
}

/** Sentry API frames: `lineNo`, `colNo`, `absPath`, `inApp`, `context: [[n, line]]` (raw text). */
function apiFrame(f: Obj) {
  const lineNo = typeof f.lineno === "number" ? f.lineno : null;
  const pre = Array.isArray(f.pre_context) ? f.pre_context : [];
  const context: Array<[number, string]> = [];
  if (lineNo !== null) {
    pre.forEach((l, i) => typeof l === "string" && context.push([lineNo - pre.length + i, l]));
    if (typeof f.context_line === "string") context.push([lineNo, f.context_line]);
    (Array.isArray(f.post_context) ? f.post_context : []).forEach((l, i) => typeof l === "string" && context.push([lineNo + 1 + i, l]));
  }
  const s = (v: unknown) => (typeof v === "string" ? v : null);
  return { filename: s(f.filename), absPath: s(f.abs_path), function: s(f.function), module: s(f.module), lineNo, colNo: typeof f.colno === "number" ? f.colno : null, context, inApp: typeof f.in_app === "boolean" ? f.in_app : null };
}

/** The event's tags as Sentry shows them: the same set the issue's tag counters count (`domain/tags.ts`). */
function tagsOf(p: Obj): Array<{ key: string; value: string }> {
  const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : null);
  const tags = eventTags(p, { level: str(p.level), environment: str(p.environment), release: str(p.release), user: userIdentity(p) });
  return tags.map(([key, value]) => ({ key, value }));
}

/** Sentry's `message` entry: the formatted text, its template and params when the SDK sent them. */
function messageEntry(p: Obj) {
  const { text, template } = messageOf(p);
  if (!text) return undefined;
  const logentry = [p.message, p.logentry].find((v): v is Obj => !!v && typeof v === "object" && !Array.isArray(v));
  return { type: "message", data: { formatted: text, message: template ?? null, params: Array.isArray(logentry?.params) ? logentry.params : null } };
}

const text = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);
const objectOf = (v: unknown): Obj | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined);

/** Sentry writes key/value collections (headers, query, cookies) as `[[key, value], …]`. */
function pairsOf(v: unknown): Array<[string, string]> {
  if (Array.isArray(v)) return v.filter((p): p is unknown[] => Array.isArray(p) && p.length >= 2).map((p) => [String(p[0]), String(p[1])]);
  if (typeof v === "string") return [...new URLSearchParams(v.replace(/^\?/, ""))];
  const o = objectOf(v);
  return o ? Object.entries(o).map(([k, x]) => [k, typeof x === "string" ? x : JSON.stringify(x)]) : [];
}

/** Sentry's ISO breadcrumb time from the SDK's unix seconds or ISO string. */
function isoTime(v: unknown): string | null {
  if (typeof v === "number" && Number.isFinite(v)) return new Date(v * 1000).toISOString();
  if (typeof v === "string") return Number.isFinite(Date.parse(v)) ? new Date(Date.parse(v)).toISOString() : /^\d+(\.\d+)?$/.test(v) ? new Date(Number(v) * 1000).toISOString() : null;
  return null;
}

function breadcrumbsEntry(p: Obj) {
  const raw = Array.isArray(p.breadcrumbs) ? p.breadcrumbs : objectOf(p.breadcrumbs)?.values;
  const values = (Array.isArray(raw) ? raw : []).map(objectOf).filter((b): b is Obj => !!b);
  if (!values.length) return undefined;
  return {
    type: "breadcrumbs",
    data: { values: values.map((b) => ({ type: text(b.type) ?? "default", category: text(b.category), level: text(b.level) ?? "info", message: text(b.message), timestamp: isoTime(b.timestamp), data: objectOf(b.data) ?? null, event_id: null })) },
  };
}

function requestEntry(p: Obj) {
  const r = objectOf(p.request);
  if (!r) return undefined;
  const body = r.data;
  return {
    type: "request",
    data: {
      url: text(r.url),
      method: text(r.method),
      query: pairsOf(r.query_string),
      fragment: text(r.fragment),
      data: body === undefined ? null : body,
      headers: pairsOf(r.headers),
      cookies: pairsOf(r.cookies),
      env: objectOf(r.env) ?? null,
      inferredContentType: null,
    },
  };
}

function userOf(p: Obj) {
  const u = objectOf(p.user);
  if (!u) return null;
  return { id: text(u.id), email: text(u.email), username: text(u.username), ip_address: text(u.ip_address), name: text(u.name), data: objectOf(u.data) ?? null };
}

/** Only the contexts that are objects, each with Sentry's `type` (its key when the SDK left it out). */
function contextsOf(p: Obj): Record<string, Obj> {
  const out: Record<string, Obj> = {};
  for (const [name, value] of Object.entries(objectOf(p.contexts) ?? {})) {
    const ctx = objectOf(value);
    if (ctx) out[name] = { type: name, ...ctx };
  }
  return out;
}

/** A full event as Sentry's API answers it (`/events/latest/`, `/events/{id}/`, `?full=true` lists). */
export function trackerEvent(e: ErrorItem, ev: StoredEvent) {
  const p = ev.payload;
  const exceptions = exceptionValues(p);
  const message = messageEntry(p);
  const extra = [breadcrumbsEntry(p), requestEntry(p)].filter((x) => !!x);
  const sdk = objectOf(p.sdk);
  return {
    id: ev.eventId,
    eventID: ev.eventId,
    groupID: String(e.errorId),
    projectID: String(e.projectId),
    dateCreated: ev.occurredAt,
    dateReceived: ev.receivedAt,
    title: titleOf(e),
    message: message?.data.formatted ?? "",
    culprit: text(p.transaction) ?? e.actor,
    location: text(p.transaction) ?? null,
    type: e.type,
    platform: typeof p.platform === "string" ? p.platform : null,
    tags: tagsOf(p),
    user: userOf(p),
    contexts: contextsOf(p),
    context: objectOf(p.extra) ?? {},
    sdk: sdk ? { name: text(sdk.name), version: text(sdk.version) } : null,
    release: release(text(p.release) ?? undefined),
    dist: text(p.dist),
    fingerprints: [] as string[],
    errors: [] as unknown[],
    // Sentry lists only the interfaces an event has: a message event has a message entry.
    entries: [
      ...(exceptions.length
        ? [{ type: "exception", data: { values: exceptions.map((v) => ({ type: v.type ?? null, value: v.value ?? null, stacktrace: framesOf(v).length ? { frames: framesOf(v).map(apiFrame) } : null })) } }]
        : []),
      ...(message ? [message] : []),
      ...extra,
    ],
  };
}
