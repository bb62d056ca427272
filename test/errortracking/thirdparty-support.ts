/**
 * A SECOND instance of this service started inside the test worker (its own DynamoDB, queue and
 * HTTP server), `hosted`, so it stores errors (integrated) and offers the tracker API `/api/0/`. The
 * shared instance (global setup, `self-managed`) uses it as its third-party tracker.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { resolve } from "node:path";
import { ownRuntime } from "../support/own-runtime.js";

const run = promisify(execFile);

export async function call(base: string, method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token) headers["Private-Token"] = token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: json, headers: res.headers, text };
}

/**
 * These trackers listen on loopback, which the outbound filter refuses by default: the instance at
 * `base` is told to allow local requests, as an administrator with a tracker on the LAN would.
 */
export async function allowLocalRequests(base: string, adminToken: string) {
  const res = await call(base, "PUT", "/api/v4/application/settings", adminToken, { allow_local_requests_from_web_hooks_and_services: true });
  if (res.status !== 200) throw new Error(`allowing local requests failed: ${res.status} ${res.text}`);
}

export async function startTracker() {
  const own = await ownRuntime({ offering: "hosted" });
  const base = own.runtime.baseUrl;
  const admin = own.runtime.bootstrap.token!;
  // The browser test connects this instance to the shared one, on loopback.
  await allowLocalRequests(base, admin);
  const user = await call(base, "POST", "/api/v4/users", admin, { username: "tracker_owner", name: "Tracker Owner", email: "t@example.com" });
  const tok = await call(base, "POST", `/api/v4/users/${user.body.id}/personal_access_tokens`, admin, { name: "t", scopes: ["api"] });
  const readTok = await call(base, "POST", `/api/v4/users/${user.body.id}/personal_access_tokens`, admin, { name: "r", scopes: ["read_api"] });
  const token = tok.body.token as string;
  const project = (await call(base, "POST", "/api/v4/projects", token, { name: "shop-api" })).body as { id: number; path: string; path_with_namespace: string };
  await call(base, "PUT", `/api/v4/projects/${project.id}/error_tracking/settings`, token, { active: true, integrated: true });
  const [key] = (await call(base, "GET", `/api/v4/projects/${project.id}/error_tracking/client_keys`, token)).body;
  return { own, base, token, readToken: readTok.body.token as string, project, dsn: key.sentry_dsn as string, ui: `/${project.path_with_namespace}/-/error_tracking` };
}

/** The real `@sentry/node` SDK, in its own process, sends an exception and a message. */
export async function sendWithSdk(dsn: string) {
  const app = resolve(import.meta.dirname, "sdk-app.mjs");
  await run(process.execPath, [app], { env: { ...process.env, SENTRY_DSN: dsn }, timeout: 30_000 });
}

export async function waitFor<T>(load: () => Promise<T>, done: (v: T) => boolean, tries = 100): Promise<T> {
  let v = await load();
  for (let i = 0; i < tries && !done(v); i++) {
    await new Promise((r) => setTimeout(r, 200));
    v = await load();
  }
  return v;
}
