/**
 * The five tracker calls GitLab makes (reference B.9) and the fields it reads from them. A response
 * missing a required key is `Sentry API response is missing keys` (GitLab's KeyError mapping).
 */
import { parseLink, TrackerError, trackerRequest } from "./client.js";

type Obj = Record<string, any>;

export interface TrackerProject {
  id: string;
  name: string;
  slug: string;
  status: string;
  organization_name: string;
  organization_id: string;
  organization_slug: string;
}

const need = (o: Obj | null | undefined, keys: string[]) => {
  if (!o || typeof o !== "object" || keys.some((k) => !(k in o))) throw new TrackerError("Sentry API response is missing keys", "keys");
  return o;
};

/** `https://host/api/0/projects/org/proj/` → `https://host` (anything before `/api/0/` is kept). */
export function hostOf(apiUrl: string): string {
  const at = apiUrl.indexOf("/api/0/");
  return at >= 0 ? apiUrl.slice(0, at) : apiUrl.replace(/\/+$/, "");
}

/** `build_api_url_from`: `{api_host}/api/0/projects/{org}/{proj}/`. */
export const apiUrlFrom = (host: string, org: string, proj: string) => `${host.replace(/\/+$/, "")}/api/0/projects/${org}/${proj}/`;

/** The org and project slugs of an `api_url` (GitLab's `\A/api/0/projects/+(org)/+(proj)/*\z`). */
export function slugsOf(apiUrl: string): { org: string; project: string } | undefined {
  try {
    const m = /^\/api\/0\/projects\/+([^/]+)\/+([^/]+)\/*$/.exec(new URL(apiUrl).pathname);
    return m ? { org: decodeURIComponent(m[1]!), project: decodeURIComponent(m[2]!) } : undefined;
  } catch {
    return undefined;
  }
}

export async function listProjects(host: string, token: string): Promise<TrackerProject[]> {
  const { body } = await trackerRequest<Obj[]>("GET", `${host}/api/0/projects/`, token);
  if (!Array.isArray(body)) throw new TrackerError("Sentry API response is missing keys", "keys");
  return body.map((p) => {
    need(p, ["id", "name", "slug", "status", "organization"]);
    const org = need(p.organization, ["id", "name", "slug"]);
    return { id: String(p.id), name: p.name, slug: p.slug, status: p.status, organization_name: org.name, organization_id: String(org.id), organization_slug: org.slug };
  });
}

const SORTS: Record<string, string | undefined> = { last_seen: undefined, first_seen: "new", frequency: "freq" };
const ISSUE_KEYS = ["id", "title", "culprit", "count", "userCount", "firstSeen", "lastSeen", "status", "project"];

/** `release:"…"` in Sentry's search syntax (quoted: values may hold spaces). */
const term = (key: string, value: string | undefined) => (value === undefined ? "" : ` ${key}:"${value.replace(/"/g, "")}"`);

export async function listIssues(apiUrl: string, token: string, q: { status: string; search?: string; sort: string; cursor?: string; limit: number; release?: string; environment?: string }) {
  if (!(q.sort in SORTS)) throw new TrackerError("Invalid value for sort param", "status", 400);
  const query = `is:${q.status}${term("release", q.release)}${term("environment", q.environment)} ${q.search ?? ""}`.trim();
  const params = new URLSearchParams({ query, limit: String(q.limit) });
  if (SORTS[q.sort]) params.set("sort", SORTS[q.sort]!);
  if (q.cursor) params.set("cursor", q.cursor);
  const { body, headers } = await trackerRequest<Obj[]>("GET", `${apiUrl.replace(/\/*$/, "/")}issues/?${params}`, token);
  if (!Array.isArray(body)) throw new TrackerError("Sentry API response is missing keys", "keys");
  return { issues: body.map((i) => need(i, ISSUE_KEYS)), pagination: parseLink(headers.get("link")) };
}

export async function getIssue(host: string, token: string, id: string): Promise<Obj> {
  return need((await trackerRequest<Obj>("GET", `${host}/api/0/issues/${encodeURIComponent(id)}/`, token)).body, ISSUE_KEYS);
}

export async function latestEvent(host: string, token: string, id: string): Promise<Obj> {
  return need((await trackerRequest<Obj>("GET", `${host}/api/0/issues/${encodeURIComponent(id)}/events/latest/`, token)).body, ["dateReceived", "entries"]);
}

const EVENT_KEYS = ["dateReceived", "entries"];

/** `GET /api/0/issues/{id}/events/?full=true`: the issue's events, newest first, with Sentry's cursors. */
export async function listIssueEvents(host: string, token: string, id: string, cursor?: string) {
  const params = new URLSearchParams({ full: "true" });
  if (cursor) params.set("cursor", cursor);
  const { body, headers } = await trackerRequest<Obj[]>("GET", `${host}/api/0/issues/${encodeURIComponent(id)}/events/?${params}`, token);
  if (!Array.isArray(body)) throw new TrackerError("Sentry API response is missing keys", "keys");
  return { events: body.map((e) => need(e, EVENT_KEYS)), pagination: parseLink(headers.get("link")) };
}

/** `GET /api/0/projects/{org}/{proj}/events/{event_id}/` on the project the `api_url` names. */
export async function getProjectEvent(apiUrl: string, token: string, eventId: string): Promise<Obj> {
  return need((await trackerRequest<Obj>("GET", `${apiUrl.replace(/\/*$/, "/")}events/${encodeURIComponent(eventId)}/`, token)).body, EVENT_KEYS);
}

export async function updateIssue(host: string, token: string, id: string, status: string): Promise<Obj> {
  return (await trackerRequest<Obj>("PUT", `${host}/api/0/issues/${encodeURIComponent(id)}/`, token, { status })).body ?? {};
}
