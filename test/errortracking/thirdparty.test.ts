/**
 * Acceptance 3: a project of the shared instance whose backend is a third-party tracker — a second
 * running instance of this service, not a mock — shows the same list, detail and stack trace as the
 * tracker's own integrated view, and resolving goes through to the tracker.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { adminToken, api, baseUrl, newUser } from "../support/api.js";
import { freePort } from "../../local/ports.js";
import { allowLocalRequests, call, sendWithSdk, startTracker, waitFor } from "./thirdparty-support.js";

let tracker: Awaited<ReturnType<typeof startTracker>>;
beforeAll(async () => {
  tracker = await startTracker();
  await allowLocalRequests(baseUrl(), adminToken());
  await sendWithSdk(tracker.dsn);
  await waitFor(() => call(tracker.base, "GET", `${tracker.ui}.json`, tracker.token), (r) => r.body.errors?.length === 2);
});
afterAll(async () => tracker?.own.stop());

async function localProject() {
  const owner = await newUser();
  const project = (await api("POST", "/api/v4/projects", { token: owner.token, body: { name: "uses-tracker" } })).body;
  return { owner, project, ui: `/${project.path_with_namespace}/-/error_tracking` };
}

const pick = (e: Record<string, unknown>) => ({ id: e.id, title: e.title, count: e.count, user_count: e.user_count, first_seen: e.first_seen, last_seen: e.last_seen, status: e.status, culprit: e.culprit, message: e.message, type: e.type });

describe("third-party tracker backend against a second instance", () => {
  it("Connect lists the tracker's projects; bad token, refused connection and Monitor disabled fail clearly", async () => {
    const { owner, project, ui } = await localProject();
    const q = (host: string, token: string) => `${ui}/projects.json?api_host=${encodeURIComponent(host)}&token=${encodeURIComponent(token)}`;
    const ok = await api("GET", q(tracker.base, tracker.token), { token: owner.token });
    expect(ok.status).toBe(200);
    expect(ok.body.projects).toEqual([
      expect.objectContaining({ name: "shop-api", slug: "shop-api", status: "active", organization_slug: "tracker_owner", organization_name: expect.any(String) }),
    ]);
    const bad = await api("GET", q(tracker.base, "glpat-not-a-real-token"), { token: owner.token });
    expect(bad).toMatchObject({ status: 400, body: { message: "Sentry response status code: 401" } });
    const refused = await api("GET", q(`http://127.0.0.1:${await freePort()}`, tracker.token), { token: owner.token });
    expect(refused).toMatchObject({ status: 400, body: { message: "Connection refused" } });
    const masked = await api("GET", q(tracker.base, "*****"), { token: owner.token });
    expect(masked.status).toBe(400); // nothing stored yet
    await api("PUT", `/api/v4/projects/${project.id}`, { token: owner.token, body: { monitor_access_level: "disabled" } });
    expect((await api("GET", q(tracker.base, tracker.token), { token: owner.token })).status).toBe(404);
  });

  it("list, detail, stack trace and resolve give the integrated content of the tracker", async () => {
    const { owner, project, ui } = await localProject();
    const saved = await api("PATCH", `/${project.path_with_namespace}/-/settings/operations`, {
      token: owner.token,
      body: { enabled: true, integrated: false, api_host: tracker.base, token: tracker.token, project: { slug: "shop-api", name: "shop-api", organization_slug: "tracker_owner", organization_name: "Tracker Owner" } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.setting).toMatchObject({ active: true, integrated: false, api_url: `${tracker.base}/api/0/projects/tracker_owner/shop-api/` });
    expect(saved.text).not.toContain(tracker.token);
    expect((await api("GET", `/api/v4/projects/${project.id}/error_tracking/settings`, { token: owner.token })).text).not.toContain(tracker.token);

    const theirs = (await call(tracker.base, "GET", `${tracker.ui}.json`, tracker.token)).body.errors;
    const ours = await api("GET", `${ui}.json`, { token: owner.token });
    expect(ours.status).toBe(200);
    expect(ours.body.errors.map(pick)).toEqual(theirs.map(pick));

    const exception = theirs.find((e: { type: string }) => e.type === "error");
    const d1 = (await call(tracker.base, "GET", `${tracker.ui}/${exception.id}/details.json`, tracker.token)).body.error;
    const d2 = (await api("GET", `${ui}/${exception.id}/details.json`, { token: owner.token })).body.error;
    expect(pick(d2)).toEqual(pick(d1));
    expect(d2).toMatchObject({ last_release_short_version: d1.last_release_short_version, tags: { level: "error" }, integrated: false });
    // The charts' series come from the tracker: hourly from stats["24h"], daily from its issue's stats["30d"].
    // (Compared by totals: a day or hour may turn between the two reads; all events were sent just now.)
    const total = (series: Array<[number, number]>) => series.reduce((sum, [, n]) => sum + n, 0);
    expect(d2.frequency_30d).toHaveLength(30);
    expect(total(d2.frequency_30d)).toBe(d1.count);
    expect(total(d2.frequency)).toBe(d1.count);

    const s1 = (await call(tracker.base, "GET", `${tracker.ui}/${exception.id}/stack_trace.json`, tracker.token)).body.error;
    const s2 = (await api("GET", `${ui}/${exception.id}/stack_trace.json`, { token: owner.token })).body.error;
    const frames = (s: { stack_trace_entries: Array<Record<string, unknown>> }) => s.stack_trace_entries.map(({ inApp: _drop, ...f }) => f);
    expect(frames(s2)).toEqual(frames(s1));
    expect(s2.stack_trace_entries.some((f: { filename: string }) => f.filename?.endsWith("sdk-app.mjs"))).toBe(true);

    const put = await api("PUT", `${ui}/${exception.id}.json`, { token: owner.token, body: { status: "resolved" } });
    expect(put.body).toEqual({ result: { status: "success", updated: true, closed_issue_iid: null } });
    const left = (await call(tracker.base, "GET", `${tracker.ui}.json`, tracker.token)).body.errors;
    expect(left.map((e: { id: string }) => e.id)).not.toContain(exception.id);
    const resolved = (await api("GET", `${ui}.json?issue_status=resolved`, { token: owner.token })).body.errors;
    expect(resolved.map((e: { id: string }) => e.id)).toEqual([exception.id]);
    await api("PUT", `${ui}/${exception.id}.json`, { token: owner.token, body: { status: "unresolved" } });
  });
});

describe("events and filters through a third-party tracker", () => {
  it("events.json and an event's details.json read the tracker's events; filters reach its query", async () => {
    const { owner, project, ui } = await localProject();
    await api("PATCH", `/${project.path_with_namespace}/-/settings/operations`, {
      token: owner.token,
      body: { enabled: true, integrated: false, api_host: tracker.base, token: tracker.token, project: { slug: "shop-api", name: "shop-api", organization_slug: "tracker_owner", organization_name: "Tracker Owner" } },
    });
    const theirs = (await call(tracker.base, "GET", `${tracker.ui}.json`, tracker.token)).body.errors;
    const exception = theirs.find((e: { type: string }) => e.type === "error");
    const e1 = await call(tracker.base, "GET", `${tracker.ui}/${exception.id}/events.json`, tracker.token);
    const e2 = await api("GET", `${ui}/${exception.id}/events.json`, { token: owner.token });
    expect(e2.status).toBe(200);
    expect(e2.body.events.length).toBeGreaterThan(0);
    expect(e2.body).toEqual(e1.body);
    const eventId = e1.body.events[0].event_id;
    const d1 = await call(tracker.base, "GET", `${tracker.ui}/${exception.id}/events/${eventId}/details.json`, tracker.token);
    const d2 = await api("GET", `${ui}/${exception.id}/events/${eventId}/details.json`, { token: owner.token });
    expect(d2.status).toBe(200);
    expect(d2.body).toEqual(d1.body);
    expect(d2.body.event.stack_trace_entries.length).toBeGreaterThan(0);
    // The message issue's event is not the exception's.
    const other = theirs.find((e: { type: string }) => e.type === "default");
    const otherEvent = (await call(tracker.base, "GET", `${tracker.ui}/${other.id}/events.json`, tracker.token)).body.events[0].event_id;
    expect((await api("GET", `${ui}/${exception.id}/events/${otherEvent}/details.json`, { token: owner.token })).status).toBe(404);
    const release = d1.body.event.release as string | null;
    const byRelease = await api("GET", `${ui}.json?environment=${encodeURIComponent(d1.body.event.environment ?? "production")}${release ? `&release=${encodeURIComponent(release)}` : ""}`, { token: owner.token });
    expect(byRelease.body.errors.map((e: { id: string }) => e.id)).toContain(exception.id);
    const none = await api("GET", `${ui}.json?release=${encodeURIComponent("no such release")}`, { token: owner.token });
    expect(none.body.errors).toEqual([]);
  });
});

describe("the offered tracker API (/api/0/)", () => {
  it("needs a token, lets read_api read but not write, and paginates with Link cursors", async () => {
    expect((await call(tracker.base, "GET", "/api/0/projects/")).status).toBe(401);
    const issues = await call(tracker.base, "GET", `/api/0/projects/tracker_owner/shop-api/issues/?query=is:unresolved&limit=1`, tracker.readToken);
    expect(issues.status).toBe(200);
    expect(issues.body).toHaveLength(1);
    expect(issues.body[0]).toMatchObject({ count: expect.any(String), project: { slug: "shop-api" } });
    // Its events of the last 24 hours, per hour: all of them, sent moments ago.
    const hours = issues.body[0].stats["24h"] as Array<[number, number]>;
    expect(hours).toHaveLength(24);
    expect(hours.reduce((sum, [, n]) => sum + n, 0)).toBe(Number(issues.body[0].count));
    expect(issues.headers.get("link")).toMatch(/rel="next"; results="true"; cursor="[^"]+"/);
    const put = await call(tracker.base, "PUT", `/api/0/issues/${issues.body[0].id}/`, tracker.readToken, { status: "ignored" });
    expect(put).toMatchObject({ status: 403, body: { detail: expect.any(String) } });
    const other = await newUser();
    expect(baseUrl()).not.toBe(tracker.base);
    expect((await call(tracker.base, "GET", `/api/0/issues/${issues.body[0].id}/`, other.token)).status).toBe(401); // not a user there
  });
});

describe("the offered tracker API's latest event", () => {
  it("has a message entry for a message event and an exception entry for an exception", async () => {
    const issues = (await call(tracker.base, "GET", `/api/0/projects/tracker_owner/shop-api/issues/?query=is:unresolved`, tracker.readToken)).body as Array<{ id: string; type: string; title: string }>;
    const byType = (type: string) => issues.find((i) => i.type === type)!;
    const message = await call(tracker.base, "GET", `/api/0/issues/${byType("default").id}/events/latest/`, tracker.readToken);
    expect(message.status).toBe(200);
    const entry = message.body.entries.find((e: { type: string }) => e.type === "message");
    expect(entry).toEqual({ type: "message", data: { formatted: byType("default").title, message: expect.toSatisfy((m: unknown) => m === null || typeof m === "string"), params: null } });
    const exception = await call(tracker.base, "GET", `/api/0/issues/${byType("error").id}/events/latest/`, tracker.readToken);
    expect(exception.body.entries.map((e: { type: string }) => e.type)).toEqual(["exception"]);
  });
});
