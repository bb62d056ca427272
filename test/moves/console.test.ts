/**
 * The operator console's JSON (`/admin/…json`) and pages, on a runtime of this file's own (a
 * storage-wide move of `default` would move other files' repositories): who may see them (every
 * route of the table under `/admin/`: administrators only, GitLab's 404 to anyone else), and what
 * they say while a real storage-wide move runs through the state machine and after it: bytes leaving
 * and arriving, a bulk move's progress and outcome, the throughput, one move's timeline, checksum,
 * execution events and path through the state machine, the moves list's filters and keyset pages,
 * and the plan texts the CLI prints.
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from "vitest";
import { routes } from "../../functions/routes.js";
import { injectMoveFaults } from "../../functions/moves/domain/fault-injection.js";
import { StorageIOError } from "../../functions/moves/domain/errors.js";
import { checksum, hashedRelativePath } from "../../functions/hosting/domain/git/index.js";
import { runMovesCli } from "../../functions/moves/cli/commands.js";
import { connect } from "../../functions/moves/cli/client.js";
import { startIsolatedRuntime, type IsolatedRuntime } from "./isolated-runtime.js";
import { call, commit, holdAt, newProject, newSnippet, scheduleMove, waitForMove } from "./support.js";
import { unique } from "../support/api.js";

let iso: IsolatedRuntime;
let stranger: { token: string; cookie: string };
let admin: { cookie: string };
beforeAll(async () => {
  iso = await startIsolatedRuntime({}, { bulkPageSize: 4 });
  stranger = await userWithSession(false);
  admin = { cookie: await signIn(iso.token) };
});
afterAll(async () => iso?.stop());
afterEach(() => injectMoveFaults(undefined));

async function userWithSession(isAdmin: boolean) {
  const username = unique("user").replace("-", "_");
  const user = await call(iso, "POST", "/api/v4/users", { body: { username, name: username, email: `${username}@example.com`, admin: isAdmin } });
  expect(user.status, user.text).toBe(201);
  const token = (await call(iso, "POST", `/api/v4/users/${user.body.id}/personal_access_tokens`, { body: { name: "t", scopes: ["api"] } })).body.token as string;
  return { token, cookie: await signIn(token) };
}

/** Signs in as a browser does (the form's CSRF token and cookie); the session cookie for later requests. */
async function signIn(token: string): Promise<string> {
  const form = await fetch(`${iso.baseUrl}/users/sign_in`);
  const csrf = /name="authenticity_token" value="([^"]+)"/.exec(await form.text())![1]!;
  const loginCookie = form.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const res = await fetch(`${iso.baseUrl}/users/sign_in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: loginCookie },
    body: new URLSearchParams({ token, authenticity_token: csrf, return_to: "/" }).toString(),
  });
  expect(res.status).toBe(303);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => c.startsWith("_forgeline_session="))!;
}

const page = (path: string, cookie?: string, headers: Record<string, string> = {}) => fetch(iso.baseUrl + path, { redirect: "manual", headers: { ...(cookie ? { cookie } : {}), ...headers } });
const json = <T = any>(path: string) => call<T>(iso, "GET", path);

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const bulkRow = async (source = "default") => ((await json("/admin/storage_moves.json")).body.bulk_moves as any[]).find((b) => b.type === "project" && b.source_storage_name === source);

describe("who may see the console", () => {
  const consoleRoutes = routes.filter((r) => r.path.startsWith("/admin/"));
  const urlOf = (path: string, moveId: number) => path.replace(":type", "project").replace(":id", String(moveId));
  let moveId: number;
  beforeAll(async () => {
    const project = await newProject(iso);
    moveId = (await scheduleMove(iso, "project", project.id, "secondary")).id;
    await waitForMove(iso, "project", moveId);
  });

  it("covers the storages, moves, one move and the plans: pages and their JSON", () => {
    expect(consoleRoutes.map((r) => r.path).sort()).toEqual(
      [
        "/admin/storages",
        "/admin/storages.json",
        "/admin/storage_moves",
        "/admin/storage_moves.json",
        "/admin/storage_moves/:type/:id",
        "/admin/storage_moves/:type/:id/details.json",
        "/admin/storage_moves/:type/:id/execution.json",
        "/admin/storage_moves/plan",
        "/admin/storage_moves/plan.json",
        "/admin/storage_moves/rebalance.json",
      ].sort(),
    );
  });

  it("every JSON: 401 without a token, GitLab's 404 to a non-administrator (token or session), 200 to an administrator", async () => {
    for (const r of consoleRoutes.filter((r) => r.path.endsWith(".json"))) {
      const url = urlOf(r.path, moveId) + (r.path.endsWith("/plan.json") ? "?source_storage_name=default&destination_storage_name=cluster" : "");
      expect(await call(iso, "GET", url, { token: null }), url).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      expect(await call(iso, "GET", url, { token: stranger.token }), url).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
      const bySession = await page(url, stranger.cookie);
      expect(bySession.status, url).toBe(404);
      expect(await bySession.json()).toEqual({ message: "404 Not Found" });
      const asAdmin = await json(url);
      expect(asAdmin.status, `${url}: ${asAdmin.text}`).toBe(200);
      expect(asAdmin.headers.get("content-type")).toMatch(/^application\/json/);
      expect((await page(url, admin.cookie)).status, url).toBe(200);
    }
  });

  it("every page: sign in first, the pages' 404 to a non-administrator, the page with its security headers to an administrator", async () => {
    for (const r of consoleRoutes.filter((r) => !r.path.endsWith(".json"))) {
      const url = urlOf(r.path, moveId);
      const anonymous = await page(url);
      expect(anonymous.status, url).toBe(302);
      expect(anonymous.headers.get("location")).toBe(`/users/sign_in?return_to=${encodeURIComponent(url)}`);
      for (const refused of [await page(url, stranger.cookie), await page(url, undefined, { "Private-Token": stranger.token })]) {
        expect(refused.status, url).toBe(404);
        expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
        expect(await refused.text()).toContain("<h1>404: Page not found</h1>");
      }
      const shown = await page(url, admin.cookie);
      expect(shown.status, url).toBe(200);
      const html = await shown.text();
      expect(html).toMatch(/<script type="module" src="\/-\/assets\/admin\/[a-z]+\.js"><\/script>/);
      expect(html).not.toMatch(/<script>|<script [^>]*>[^<]+<\/script>|style=/);
      expect(shown.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(shown.headers.get("x-frame-options")).toBe("DENY");
    }
    // A type that has no moves is a page that does not exist.
    expect((await page("/admin/storage_moves/widget/1", admin.cookie)).status).toBe(404);
    expect(await json("/admin/storage_moves/widget/1/details.json")).toMatchObject({ status: 404, body: { message: "404 Storage move Not Found" } });
    expect(await json(`/admin/storage_moves/snippet/${moveId + 1000}/details.json`)).toMatchObject({ status: 404 });
  });

  it("refuses before reading parameters: bad ones get a non-administrator the 404 and an anonymous caller the sign-in, not a 400", async () => {
    const bad = ["/admin/storage_moves/plan.json", "/admin/storage_moves/plan.json?source_storage_name=default", "/admin/storage_moves.json?per_page=none", "/admin/storage_moves/rebalance.json?tolerance=lots", "/admin/storage_moves/project/abc/details.json", "/admin/storage_moves/project/0/execution.json"];
    for (const url of bad) {
      expect(await call(iso, "GET", url, { token: null }), url).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      expect(await call(iso, "GET", url, { token: stranger.token }), url).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
      const bySession = await page(url, stranger.cookie);
      expect(bySession.status, url).toBe(404);
      expect(await bySession.json()).toEqual({ message: "404 Not Found" });
      expect((await json(url)).status, url).toBe(400);
    }
    for (const url of ["/admin/storage_moves/project/abc", "/admin/storage_moves/project/0", `/admin/storage_moves/${"x".repeat(30)}/1`]) {
      const anonymous = await page(url);
      expect(anonymous.status, url).toBe(302);
      expect(anonymous.headers.get("location")).toBe(`/users/sign_in?return_to=${encodeURIComponent(url)}`);
      const refused = await page(url, stranger.cookie);
      expect(refused.status, url).toBe(404);
      expect(await refused.text()).toContain("<h1>404: Page not found</h1>");
    }
    expect((await page("/admin/storage_moves/project/abc", admin.cookie)).status).toBe(400);
  });

  it("the pages' scripts are served to anyone, as the error pages' are, and every one they import exists", async () => {
    for (const name of ["console", "storages", "moves", "move", "plan"]) {
      const res = await page(`/-/assets/admin/${name}.js`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      for (const [, imported] of (await res.text()).matchAll(/from "([^"]+)"/g)) {
        const path = imported!.startsWith("./") ? `/-/assets/admin/${imported!.slice(2)}` : imported!;
        expect((await page(path)).status, `${name} imports ${imported}`).toBe(200);
      }
    }
    expect((await page("/-/assets/admin/nothing.js")).status).toBe(404);
  });
});

describe("a storage-wide move, as the console shows it", () => {
  let projects: Array<{ id: number }>;
  let totalBytes: number;

  it("while it runs: bytes leave default for cluster, the bulk move's progress, the held move's state", async () => {
    projects = [];
    for (let i = 0; i < 6; i++) projects.push(await newProject(iso));
    for (const p of projects.slice(0, 3)) expect((await commit(iso, p.id, "more history")).status).toBe(201);
    // Everything else on default went with the first test's move; what the plan counts is these six and any earlier.
    const planned = await json("/admin/storage_moves/plan.json?source_storage_name=default&destination_storage_name=cluster");
    totalBytes = planned.body.plan.total_bytes;
    const before = (await json("/admin/storages.json")).body.storages.find((s: any) => s.name === "default");
    expect(before.used_bytes).toBe(totalBytes);
    expect(before.repositories.projects.count).toBe(planned.body.plan.types.find((t: any) => t.type === "project").repositories);

    const hold = holdAt((point, phase) => point === "moveReplicate" && phase === "before");
    const scheduled = await call(iso, "POST", "/api/v4/project_repository_storage_moves", { body: { source_storage_name: "default", destination_storage_name: "cluster" } });
    expect(scheduled.status).toBe(202);
    await hold.reached;
    try {
      const storages = await until("moves in flight", () => json("/admin/storages.json"), (r) => r.body.moves_in_flight >= 4);
      // It reads the whole inventory: asked again at the idle pace even while moves run.
      expect(storages.headers.get("poll-interval")).toBe("10000");
      const byName = Object.fromEntries(storages.body.storages.map((s: any) => [s.name, s]));
      expect(byName.default.moving_out_bytes).toBeGreaterThan(0);
      expect(byName.default.moves_out.length).toBeGreaterThanOrEqual(4);
      expect(byName.default.moves_out.every((m: any) => m.source_storage_name === "default" && m.destination_storage_name === "cluster")).toBe(true);
      expect(byName.cluster.moving_in_bytes).toBe(byName.default.moving_out_bytes);
      expect(byName.cluster.replicas).toHaveLength(3);
      expect(byName.cluster.replicas.every((r: any) => r.free_bytes === null || r.free_bytes > 0)).toBe(true);

      const bulk = await until("the second page", bulkRow, (b) => b?.counts.scheduled === 6);
      expect(bulk).toMatchObject({ running: true, destination_storage_name: "cluster", total_repositories: 6, total_bytes: totalBytes, ended_at: null, canceled_at: null });
      expect(bulk.counts).toMatchObject({ started: 4, finished: 0, failed: 0, skipped: 0 });
      expect(bulk.progress).toBe(0);
      expect(bulk.execution_arn).toMatch(/^arn:aws:states:[a-z0-9-]+:000000000000:execution:StorageMoveMachine:bulk-project-from-default-/);
      expect(bulk.console_url).toBeNull();

      // One of the held batch's moves: in Replicate, by its execution's events; its record says it copies.
      const held = byName.default.moves_out.find((m: any) => m.state === "started");
      const details = (await json(`/admin/storage_moves/project/${held.id}/details.json`)).body;
      expect(details.path).toMatchObject({ current: "Replicate", failed: null, from: "record" });
      expect(details.execution).toEqual({ arn: bulk.execution_arn, shared: true, console_url: null });
      const execution = await json(`/admin/storage_moves/project/${held.id}/execution.json`);
      expect(execution.headers.get("poll-interval")).toBe("2000");
      expect(execution.body.path).toMatchObject({ current: "Replicate", failed: null, from: "execution" });
      expect(execution.body.path.visited).toEqual(expect.arrayContaining(["Route", "FirstPage", "MoveAndScheduleNext", "MoveRepositories", "StartMoves", "WritesDrained"]));
      expect(execution.body.path.visited).not.toContain("SwitchStorage");
      expect(execution.body).toMatchObject({ arn: bulk.execution_arn, shared: true, console_url: null, error: null });
      expect(execution.body.events[0]).toMatchObject({ id: 1, type: "ExecutionStarted" });
      expect(execution.body.events.at(-1)).toMatchObject({ type: "TaskStateEntered", state: "Replicate" });
      // Of the shared execution, only the states that carried this move are listed.
      const waiting = (await json("/admin/storage_moves.json?state=scheduled")).body.moves[0];
      const others = (await json(`/admin/storage_moves/project/${waiting.id}/execution.json`)).body;
      expect(others.path).toMatchObject({ current: "MoveRepositories", from: "record" });
      expect(others.events.filter((e: any) => e.state === "Replicate")).toEqual([]);
      // Its batch has not started: none of the shared execution's events are its own, none are read.
      expect(others).toMatchObject({ arn: bulk.execution_arn, shared: true, events: [], error: null });
      expect(details.timeline.map((t: any) => t.step)).toEqual(["scheduled", "started"]);
      expect(details.timeline.every((t: any) => t.seconds >= 0)).toBe(true);
    } finally {
      hold.release();
    }
  });

  it("once it ended: every move finished, the bytes arrived, its counts, the throughput, each move's timeline and checksum", async () => {
    await iso.runtime.settle();
    const bulk = await until("the bulk move's end", bulkRow, (b) => b && !b.running);
    expect(bulk).toMatchObject({ progress: 1, eta_seconds: null, bytes_done: totalBytes, counts: { scheduled: 6, finished: 6, failed: 0, skipped: 0, canceled: 0 } });
    const byName = Object.fromEntries((await json("/admin/storages.json")).body.storages.map((s: any) => [s.name, s]));
    expect(byName.default).toMatchObject({ used_bytes: 0, moving_out_bytes: 0, moves_out: [] });
    expect(byName.cluster.used_bytes).toBeGreaterThanOrEqual(totalBytes);

    const rate = (await json("/admin/storage_moves.json")).body.throughput;
    expect(rate.bytes_per_second).toHaveLength(60);
    expect(rate.moves_per_minute.reduce((n: number, [, m]: [number, number]) => n + m, 0)).toBeGreaterThanOrEqual(7);
    expect(rate.bytes_per_second.reduce((n: number, [, b]: [number, number]) => n + b * 60, 0)).toBeGreaterThanOrEqual(totalBytes - 60 * 60);

    const moves = (await json("/admin/storage_moves.json?type=project&per_page=6")).body.moves;
    expect(moves.map((m: any) => m.container.id).sort()).toEqual(projects.map((p) => p.id).sort());
    for (const m of moves) {
      const d = (await json(`/admin/storage_moves/project/${m.id}/details.json`)).body;
      expect(d.timeline.map((t: any) => t.step)).toEqual(["scheduled", "started", "copied and verified", "replicated", "source copy removed", "finished"]);
      expect(d.timeline.slice(0, -1).every((t: any) => t.seconds >= 0) && d.timeline.at(-1).seconds === null).toBe(true);
      expect(d.checksum).toBe(await checksum("cluster", hashedRelativePath("project", m.container.id)));
      const x = (await json(`/admin/storage_moves/project/${m.id}/execution.json`)).body;
      expect(x.path).toMatchObject({ current: null, failed: null, from: "execution" });
      expect(x.path.visited).toEqual(expect.arrayContaining(["StartMoves", "Replicate", "SwitchStorage", "Cleanup", "Finish", "AnyFailed", "Outcomes"]));
      expect(x.path.visited).not.toContain("MarkFailed");
    }
  });
});

describe("one move that failed", () => {
  it("is marked failed in the state where it failed, with the cause; its own execution's events are all listed", async () => {
    const project = await newProject(iso);
    injectMoveFaults((task, phase) => {
      if (task === "moveReplicate" && phase === "before") throw new StorageIOError("injected: the destination is gone");
    });
    const move = await scheduleMove(iso, "project", project.id, "secondary");
    expect(await waitForMove(iso, "project", move.id)).toMatchObject({ state: "failed" });
    await iso.runtime.settle();
    const d = (await json(`/admin/storage_moves/project/${move.id}/details.json`)).body;
    expect(d.path).toMatchObject({ current: null, failed: { state: "MarkFailed", cause: "injected: the destination is gone" }, from: "record" });
    expect(d.move).toMatchObject({ state: "failed", error_message: "injected: the destination is gone" });
    const x = await json(`/admin/storage_moves/project/${move.id}/execution.json`);
    expect(x.headers.get("poll-interval")).toBe("10000");
    expect(x.body.path).toMatchObject({ current: null, failed: { state: "Replicate", cause: "injected: the destination is gone" }, from: "execution" });
    expect(x.body.path.visited).toEqual(expect.arrayContaining(["Route", "SingleMove", "StartMoves", "MarkFailed", "AfterMoves", "MoveFailed"]));
    expect(x.body).toMatchObject({ shared: false, complete: true, error: null });
    expect(x.body.events.map((e: any) => e.id)).toEqual(x.body.events.map((_: unknown, i: number) => i + 1));
    expect(x.body.events.at(-1)).toMatchObject({ type: "ExecutionFailed", detail: expect.stringContaining("StorageMoveFailed") });
  });
});

describe("the moves list", () => {
  it("pages newest first across types by keyset, and filters by type, state and storage", async () => {
    await newSnippet(iso).then((s) => scheduleMove(iso, "snippet", s.id, "secondary")).then((m) => waitForMove(iso, "snippet", m.id));
    const all = (await json("/admin/storage_moves.json?per_page=100")).body.moves as any[];
    expect(all.length).toBeGreaterThan(8);
    expect(all.map((m) => m.created_at)).toEqual([...all.map((m) => m.created_at)].sort().reverse());
    expect(all[0]).toMatchObject({ type: "snippet", state: "finished" });
    // Page by page, two at a time: the same moves in the same order, each once.
    const paged: any[] = [];
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      const res = await json(`/admin/storage_moves.json?per_page=2${cursor ? `&cursor=${cursor}` : ""}`);
      paged.push(...res.body.moves);
      cursor = res.body.pagination.next?.cursor;
      if (cursor) expect(res.headers.get("link")).toContain(`cursor=${cursor}>; rel="next"`);
      else break;
      expect(pages).toBeLessThan(50);
    }
    expect(paged.map((m) => `${m.type}${m.id}`)).toEqual(all.map((m) => `${m.type}${m.id}`));

    const failed = (await json("/admin/storage_moves.json?state=failed")).body.moves as any[];
    expect(failed.map((m) => m.id)).toEqual(all.filter((m) => m.state === "failed").map((m) => m.id));
    expect(failed.length).toBeGreaterThan(0);
    const snippets = (await json("/admin/storage_moves.json?type=snippet")).body.moves as any[];
    expect(snippets.length).toBe(all.filter((m) => m.type === "snippet").length);
    const cluster = (await json("/admin/storage_moves.json?storage=cluster&per_page=100")).body.moves as any[];
    expect(cluster.map((m) => m.id)).toEqual(all.filter((m) => m.source_storage_name === "cluster" || m.destination_storage_name === "cluster").map((m) => m.id));
    expect(cluster.length).toBe(6);

    for (const bad of ["state=moving", "type=widget", "storage=nowhere", "cursor=notacursor", "cursor=" + Buffer.from('{"project":-1}').toString("base64url")]) {
      const res = await json(`/admin/storage_moves.json?${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });
});

describe("plan and rebalance", () => {
  const cli = async (...argv: string[]) => {
    const lines: string[] = [];
    await runMovesCli(argv, connect({ FORGELINE_URL: iso.baseUrl, FORGELINE_TOKEN: iso.token }), (l) => lines.push(l));
    return lines;
  };

  it("say what `npm run moves -- plan` and `rebalance --dry-run` print, line for line", async () => {
    const plan = await json("/admin/storage_moves/plan.json?source_storage_name=cluster&destination_storage_name=default");
    expect(plan.body.plan.total_bytes).toBeGreaterThan(0);
    // Free space is the file system's, which other processes change between two reads: compared by shape.
    const sameFreeSpace = (lines: string[]) => lines.map((l) => l.replace(/: \d+(\.\d+)? (B|KiB|MiB|GiB) free$/, ": <n> free"));
    expect(sameFreeSpace(plan.body.lines)).toEqual(sameFreeSpace(await cli("plan", "--from", "cluster", "--to", "default")));
    expect(plan.body.lines.filter((l: string) => / replica \d: \d+(\.\d+)? (B|KiB|MiB|GiB) free$/.test(l))).toHaveLength(1);
    expect(plan.body.lines[0]).toBe("Moving everything off cluster to default:");
    const rebalance = await json("/admin/storage_moves/rebalance.json?tolerance=10");
    expect(rebalance.body.plan.moves.length).toBeGreaterThan(0);
    expect(rebalance.body.lines).toEqual(await cli("rebalance", "--dry-run", "--tolerance", "10"));
    expect(rebalance.body.lines.at(-1)).toBe("Dry run: nothing was scheduled.");
    expect(await json("/admin/storage_moves/plan.json?source_storage_name=cluster&destination_storage_name=cluster")).toMatchObject({ status: 400 });
    expect(await json("/admin/storage_moves/rebalance.json?tolerance=200")).toMatchObject({ status: 400 });
  });
});
