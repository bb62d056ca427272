/** Integrated data in the Sentry web API's field names (what GitLab's `SentryClient` reads, B.9). */
import type { Context } from "hono";
import { baseUrl } from "../../platform/http/urls.js";
import { fullPathOf, type Project } from "../../hosting/domain/projects.js";
import type { ErrorItem, StoredEvent } from "../domain/errors.js";
import type { Frequency } from "../domain/frequency.js";
import { exceptionValues, framesOf, messageOf } from "../domain/event.js";
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

function tagsOf(p: Obj): Array<{ key: string; value: string }> {
  const raw = p.tags;
  const pairs: Array<[string, unknown]> = Array.isArray(raw) ? raw.filter(Array.isArray).map((t) => [String(t[0]), t[1]]) : raw && typeof raw === "object" ? Object.entries(raw) : [];
  const tags = new Map(pairs.map(([k, v]) => [k, String(v)]));
  for (const k of ["environment", "release", "level"]) if (typeof p[k] === "string" && !tags.has(k)) tags.set(k, p[k] as string);
  return [...tags].map(([key, value]) => ({ key, value }));
}

/** Sentry's `message` entry: the formatted text, its template and params when the SDK sent them. */
function messageEntry(p: Obj) {
  const { text, template } = messageOf(p);
  if (!text) return undefined;
  const logentry = [p.message, p.logentry].find((v): v is Obj => !!v && typeof v === "object" && !Array.isArray(v));
  return { type: "message", data: { formatted: text, message: template ?? null, params: Array.isArray(logentry?.params) ? logentry.params : null } };
}

export function trackerEvent(e: ErrorItem, ev: StoredEvent) {
  const p = ev.payload;
  const exceptions = exceptionValues(p);
  const message = messageEntry(p);
  return {
    id: ev.eventId,
    eventID: ev.eventId,
    groupID: String(e.errorId),
    dateCreated: ev.occurredAt,
    dateReceived: ev.receivedAt,
    title: titleOf(e),
    platform: typeof p.platform === "string" ? p.platform : null,
    tags: tagsOf(p),
    // Sentry lists only the interfaces an event has: a message event has a message entry.
    entries: [
      ...(exceptions.length
        ? [{ type: "exception", data: { values: exceptions.map((v) => ({ type: v.type ?? null, value: v.value ?? null, stacktrace: framesOf(v).length ? { frames: framesOf(v).map(apiFrame) } : null })) } }]
        : []),
      ...(message ? [message] : []),
    ],
  };
}
