/**
 * The project-scoped UI JSON (`/:namespace/:project/-/error_tracking…`): sorts × statuses as index
 * Queries, cursors both ways, search, details with release health, GitLab's stack trace shape, status
 * updates, and the access matrix (Monitor disabled → 404).
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, newUser, unique } from "../support/api.js";
import { deliver, exceptionEvent, expectHourlyCounts, listErrors, message, trackedProject, type User } from "./support.js";

const T0 = Math.floor(Date.now() / 1000 - 7200) * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
let owner: User;
let ui: string;
let projectId: number;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ owner, ui, project: { id: projectId } } = await trackedProject());
  // first_seen order: Range < Type < Syntax; last_seen order: Type > Syntax > Range; frequency: Type 4, Syntax 3, Range 2.
  const at = (type: string, seconds: number[], release?: string) => seconds.map((s) => message(projectId, exceptionEvent({ type, value: `${type} happened`, timestamp: (T0 + s * 1000) / 1000, release })));
  const session = (sid: string, status: string) => message(projectId, { sid, status, attrs: { release: "app@2.0" } }, { kind: "session" });
  await deliver([...at("RangeError", [0, 10]), ...at("TypeError", [20, 30, 40, 90], "app@2.0"), ...at("SyntaxError", [50, 60, 70]), session("s1", "exited"), session("s2", "crashed")]);
  for (const e of (await listErrors(owner.token, ui)).errors) ids[e.title.split(":")[0]] = e.id;
});

const types = (errors: Array<Record<string, any>>) => errors.map((e) => e.title.split(":")[0]);

describe("error_tracking.json", () => {
  it("lists unresolved errors by last seen with GitLab's ErrorEntity, Poll-Interval and pagination", async () => {
    const res = await api("GET", `${ui}.json`, { token: owner.token });
    expect(res.headers.get("poll-interval")).toBe("1000");
    expect(res.body.pagination).toEqual({});
    expect(res.body.external_url).toBeNull();
    expect(types(res.body.errors)).toEqual(["TypeError", "SyntaxError", "RangeError"]);
    expect(res.body.errors[0]).toEqual({
      id: ids.TypeError, title: "TypeError: TypeError happened", type: "error", user_count: 0, count: 4,
      first_seen: iso(T0 + 20_000), last_seen: iso(T0 + 90_000), message: "TypeError happened", culprit: "handler(a)",
      external_url: expect.stringMatching(new RegExp(`/${res.body.errors[0].project_slug}/-/error_tracking/${ids.TypeError}/details$`)),
      project_id: projectId, project_name: expect.any(String), project_slug: expect.any(String), short_id: null, status: "unresolved", frequency: expect.any(Array),
    });
    // Events per hour of their own timestamps, over the last 24 hours.
    expectHourlyCounts(res.body.errors[0].frequency, [20, 30, 40, 90].map((s) => T0 + s * 1000));
    expectHourlyCounts(res.body.errors[2].frequency, [0, 10].map((s) => T0 + s * 1000));
  });

  it("sorts by first seen and by frequency", async () => {
    expect(types((await listErrors(owner.token, ui, "?sort=first_seen")).errors)).toEqual(["SyntaxError", "TypeError", "RangeError"]);
    expect((await listErrors(owner.token, ui, "?sort=frequency")).errors.map((e) => e.count)).toEqual([4, 3, 2]);
  });

  it("filters by status after PUT …/:issue_id.json, and searches case-insensitively", async () => {
    const put = await api("PUT", `${ui}/${ids.RangeError}.json`, { token: owner.token, body: { status: "resolved" } });
    expect(put).toMatchObject({ status: 200, body: { result: { status: "success", updated: true, closed_issue_iid: null } } });
    await api("PUT", `${ui}/${ids.SyntaxError}.json`, { token: owner.token, body: { status: "ignored" } });
    for (const sort of ["last_seen", "first_seen", "frequency"]) {
      expect(types((await listErrors(owner.token, ui, `?sort=${sort}`)).errors)).toEqual(["TypeError"]);
      expect(types((await listErrors(owner.token, ui, `?sort=${sort}&issue_status=resolved`)).errors)).toEqual(["RangeError"]);
      expect(types((await listErrors(owner.token, ui, `?sort=${sort}&issue_status=ignored`)).errors)).toEqual(["SyntaxError"]);
    }
    expect(types((await listErrors(owner.token, ui, "?issue_status=resolved&search_term=RANGE")).errors)).toEqual(["RangeError"]);
    expect((await listErrors(owner.token, ui, "?issue_status=resolved&search_term=nomatch")).errors).toEqual([]);
    await api("PUT", `${ui}/${ids.RangeError}.json`, { token: owner.token, body: { status: "unresolved" } });
    await api("PUT", `${ui}/${ids.SyntaxError}`, { token: owner.token, body: { status: "unresolved" } });
    expect(types((await listErrors(owner.token, ui)).errors)).toEqual(["TypeError", "SyntaxError", "RangeError"]);
    expect((await api("PUT", `${ui}/${ids.RangeError}.json`, { token: owner.token, body: { status: "closed" } })).body).toEqual({ error: "status does not have a valid value" });
    expect((await api("PUT", `${ui}/123.json`, { token: owner.token, body: { status: "resolved" } })).status).toBe(404);
  });

  it("rejects an unknown status, sort or cursor with 400", async () => {
    expect((await api("GET", `${ui}.json?issue_status=muted`, { token: owner.token })).body).toEqual({ message: "Bad Request: Invalid issue_status" });
    expect((await api("GET", `${ui}.json?sort=id`, { token: owner.token })).status).toBe(400);
    expect((await api("GET", `${ui}.json?cursor=garbage`, { token: owner.token })).body).toEqual({ message: "Bad Request: Invalid cursor" });
  });

  it("pages 20 at a time with next and previous cursors, for every sort", async () => {
    const big = await trackedProject({ owner });
    await deliver(Array.from({ length: 45 }, (_, i) => message(big.project.id, exceptionEvent({ type: `E${i}`, timestamp: (T0 + i * 1000) / 1000 }))));
    for (const sort of ["last_seen", "first_seen", "frequency"]) {
      const p1 = await listErrors(owner.token, big.ui, `?sort=${sort}`);
      expect(p1.pagination.previous).toBeUndefined();
      const p2 = await listErrors(owner.token, big.ui, `?sort=${sort}&cursor=${p1.pagination.next!.cursor}`);
      const p3 = await listErrors(owner.token, big.ui, `?sort=${sort}&cursor=${p2.pagination.next!.cursor}`);
      expect([p1.errors.length, p2.errors.length, p3.errors.length]).toEqual([20, 20, 5]);
      expect(p3.pagination.next).toBeUndefined();
      expect(new Set([...p1.errors, ...p2.errors, ...p3.errors].map((e) => e.id)).size).toBe(45);
      const back = await listErrors(owner.token, big.ui, `?sort=${sort}&cursor=${p3.pagination.previous!.cursor}`);
      expect(back.errors.map((e) => e.id)).toEqual(p2.errors.map((e) => e.id));
      const first = await listErrors(owner.token, big.ui, `?sort=${sort}&cursor=${back.pagination.previous!.cursor}`);
      expect(first.errors.map((e) => e.id)).toEqual(p1.errors.map((e) => e.id));
      expect(first.pagination.previous).toBeUndefined();
    }
  });
});

describe("details.json and stack_trace.json", () => {
  it("details: DetailedErrorEntity with releases and per-release crash-free sessions", async () => {
    const res = await api("GET", `${ui}/${ids.TypeError}/details.json`, { token: owner.token });
    expect(res.headers.get("poll-interval")).toBe("1000");
    expect(res.body.error).toMatchObject({
      id: ids.TypeError, count: 4, culprit: "handler(a)", first_release_short_version: "app@2.0", last_release_short_version: "app@2.0",
      first_release_last_commit: null, external_base_url: expect.any(String), integrated: true, tags: { level: "error", logger: null },
      release_health: [{ version: "app@2.0", sessions: 2, errored_sessions: 1, crashed_sessions: 1, abnormal_sessions: 0, crash_free_sessions: 0.5 }],
    });
    expect((await api("GET", `${ui}/999/details.json`, { token: owner.token })).body).toEqual({ message: "404 Error Not Found" });
  });

  it("stack trace: GitLab's builder shape, context lines numbered and HTML-escaped", async () => {
    const res = await api("GET", `${ui}/${ids.TypeError}/stack_trace.json`, { token: owner.token });
    expect(res.body.error.issue_id).toBe(ids.TypeError);
    expect(res.body.error.date_received).toBe(iso(T0 + 90_000));
    expect(res.body.error.stack_trace_entries).toEqual([
      { lineNo: 3, context: [], filename: "node:internal/x", abs_path: null, function: "outer", colNo: 0 },
      {
        lineNo: 10, filename: "/srv/app/a.mjs", abs_path: "/srv/app/a.mjs", function: "handler", colNo: 0,
        context: [[8, "const a = 1;"], [9, "const b = 2;"], [10, "throw new TypeError(&#39;&lt;b&gt;&#39;);"], [11, "done();"]],
      },
    ]);
  });
});

describe("access to the UI JSON", () => {
  it("401 without a token; 404 for strangers and guests; Reporter reads; Developer updates", async () => {
    const add = async (level: number) => {
      const u = await newUser();
      await api("POST", `/api/v4/projects/${projectId}/members`, { token: owner.token, body: { user_id: u.id, access_level: level } });
      return u;
    };
    const [guest, reporter, developer, stranger] = [await add(10), await add(20), await add(30), await newUser()];
    const reads = [`${ui}.json`, `${ui}/${ids.TypeError}/details.json`, `${ui}/${ids.TypeError}/stack_trace.json`];
    for (const url of reads) {
      expect((await api("GET", url)).status, url).toBe(401);
      for (const u of [stranger, guest]) expect((await api("GET", url, { token: u.token })).body, url).toEqual({ message: "404 Not Found" });
      expect((await api("GET", url, { token: reporter.token })).status, url).toBe(200);
    }
    const put = (u: User) => api("PUT", `${ui}/${ids.TypeError}.json`, { token: u.token, body: { status: "unresolved" } });
    expect((await put(reporter)).status).toBe(404);
    expect((await put(developer)).status).toBe(200);
  });

  it("answers 404 everywhere when the project's Monitor feature is disabled, 400 when tracking is off", async () => {
    const p = await trackedProject({ owner });
    await deliver([message(p.project.id, exceptionEvent())]);
    const [error] = (await listErrors(owner.token, p.ui)).errors;
    expect((await api("PUT", `/api/v4/projects/${p.project.id}`, { token: owner.token, body: { monitor_access_level: "disabled" } })).status).toBe(200);
    for (const [method, url] of [["GET", `${p.ui}.json`], ["GET", `${p.ui}/${error!.id}/details.json`], ["GET", `${p.ui}/${error!.id}/stack_trace.json`], ["PUT", `${p.ui}/${error!.id}.json`]] as const) {
      const res = await api(method, url, { token: owner.token, body: method === "PUT" ? { status: "resolved" } : undefined });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    await api("PUT", `/api/v4/projects/${p.project.id}`, { token: owner.token, body: { monitor_access_level: "enabled" } });
    await api("PATCH", `/api/v4/projects/${p.project.id}/error_tracking/settings`, { token: owner.token, body: { active: false } });
    expect((await api("GET", `${p.ui}.json`, { token: owner.token })).body).toEqual({ message: "Error Tracking is not enabled" });
  });

  it("serves projects in a subgroup (group/subgroup/project)", async () => {
    const path = unique("g");
    const group = await api("POST", "/api/v4/groups", { token: owner.token, body: { name: path, path } });
    const sub = await api("POST", "/api/v4/groups", { token: owner.token, body: { name: "sub", path: "sub", parent_id: group.body.id } });
    const p = await trackedProject({ owner, namespaceId: sub.body.id });
    expect(p.ui.split("/")).toHaveLength(6);
    await deliver([message(p.project.id, exceptionEvent({ type: "DeepError" }))]);
    expect(types((await listErrors(owner.token, p.ui)).errors)).toEqual(["DeepError"]);
  });
});
