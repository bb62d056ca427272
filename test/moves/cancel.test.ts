/**
 * An operator cancels a storage-wide move, or changes its concurrency, while it runs (through the
 * operator CLI, which drives the admin API). The state machine is held at a chosen step with the
 * fault-injection seam, so each case cancels at a known phase: before any page, while a move copies
 * with the next page scheduled, after the switch. Writers commit throughout; afterwards nothing they
 * were told was committed is missing, every repository is writable and `git fsck` clean, and every
 * move is `finished` or `failed` with `Canceled by an administrator`.
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from "vitest";
import { commitSubjects, fsck, repoPaths } from "../support/git.js";
import { injectMoveFaults } from "../../functions/moves/domain/fault-injection.js";
import { runMovesCli } from "../../functions/moves/cli/commands.js";
import { connect } from "../../functions/moves/cli/client.js";
import { startIsolatedRuntime, type IsolatedRuntime } from "./isolated-runtime.js";
import { call, commit, holdAt, newProject, storageOf } from "./support.js";

let iso: IsolatedRuntime;
beforeAll(async () => {
  iso = await startIsolatedRuntime({}, { bulkPageSize: 2 });
});
afterAll(async () => {
  await iso?.stop();
});
const stopWriters: Array<() => void> = [];
afterEach(() => {
  injectMoveFaults(undefined);
  stopWriters.splice(0).forEach((stop) => stop());
});

const CANCELED = "Canceled by an administrator";

function cli(...argv: string[]) {
  const lines: string[] = [];
  const status = runMovesCli(argv, connect({ FORGELINE_URL: iso.baseUrl, FORGELINE_TOKEN: iso.token }), (l) => lines.push(l));
  return status.then((code) => ({ code, lines }));
}

type Move = { id: number; state: string; error_message: string | null; destination_storage_name: string; project: { id: number } };

const movesSince = async (since: number): Promise<Move[]> =>
  ((await call(iso, "GET", "/api/v4/project_repository_storage_moves?per_page=100")).body as Move[]).filter((m) => m.id > since);

const projectsOn = async (storage: string): Promise<number[]> =>
  (await call(iso, "GET", `/api/v4/projects?repository_storage=${storage}&per_page=100`)).body.map((p: { id: number }) => p.id);

const lastMoveId = async () => (await movesSince(0))[0]?.id ?? 0;

/** Waits until the first page's two moves are under way and the second page's two are scheduled. */
const secondPageScheduled = (since: number) =>
  until("the second page", () => movesSince(since), (moves) => moves.length === 4 && moves.filter((m) => m.state === "scheduled").length === 2);

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 50_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Projects on `storage` with a writer committing to each until `stop()`; refusals must be the read-only 409. */
async function projectsWithWriters(count: number) {
  const projects = await Promise.all(Array.from({ length: count }, () => newProject(iso)));
  const acked = new Map<number, string[]>(projects.map((p) => [p.id, []]));
  const unexpected: string[] = [];
  let stopped = false;
  stopWriters.push(() => (stopped = true));
  const writers = projects.map(async (p) => {
    for (let i = 0; !stopped; i++) {
      const message = `cancel race ${p.id} #${i}`;
      const res = await commit(iso, p.id, message);
      if (res.status === 201) acked.get(p.id)!.push(message);
      else if (res.status !== 409) unexpected.push(`${res.status} ${res.text}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  });
  return {
    ids: projects.map((p) => p.id),
    async stop() {
      stopped = true;
      await Promise.all(writers);
      expect(unexpected).toEqual([]);
      return acked;
    },
  };
}

/** Nothing acknowledged lost, fsck clean, writable, on the storage its last move says. */
async function expectIntact(ids: number[], acked: Map<number, string[]>, expectedStorage: (id: number) => string) {
  for (const id of ids) {
    const storage = await storageOf("project", id);
    expect(storage, `project ${id}`).toBe(expectedStorage(id));
    for (const dir of repoPaths(storage!, "project", id)) {
      fsck(dir);
      const subjects = commitSubjects(dir);
      for (const message of acked.get(id)!) expect(subjects).toContain(message);
    }
    expect((await commit(iso, id, `writable after the cancel ${id}`)).status).toBe(201);
  }
}

const startBulk = async (from: string, to: string) => {
  const res = await call(iso, "POST", "/api/v4/project_repository_storage_moves", { body: { source_storage_name: from, destination_storage_name: to } });
  expect(res.status, res.text).toBe(202);
};

describe("cancel a storage-wide move", () => {
  it("before any page: nothing is scheduled, every repository stays writable on its source", async () => {
    const writers = await projectsWithWriters(3);
    const since = await lastMoveId();
    const hold = holdAt((point, phase) => point === "moveScheduleBatch" && phase === "before");
    await startBulk("default", "secondary");
    await hold.reached;
    const { code, lines } = await cli("cancel", "projects", "--from", "default");
    expect(code).toBe(0);
    expect(lines).toEqual([
      "Canceled the project moves off default: no further page is scheduled; 0 scheduled moves failed (Canceled by an administrator) and stay writable on default; moves already started run to their end.",
    ]);
    hold.release();
    await iso.runtime.settle();
    expect(await movesSince(since)).toEqual([]);
    await expectIntact(writers.ids, await writers.stop(), () => "default");
  });

  it("while a move copies and the next page is scheduled: the copy finishes, the scheduled moves fail writable, no page follows", async () => {
    const writers = await projectsWithWriters(6);
    const onDefaultBefore = await projectsOn("default");
    const since = await lastMoveId();
    const hold = holdAt((point, phase) => point === "moveReplicate" && phase === "copied");
    await startBulk("default", "secondary");
    await hold.reached;
    // The first page copies (held mid-copy); the second page is scheduled meanwhile, read-only.
    const scheduled = await secondPageScheduled(since);
    const { code, lines } = await cli("cancel", "projects", "--from", "default");
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/; 2 scheduled moves failed \(Canceled by an administrator\)/);
    hold.release();
    await iso.runtime.settle();

    const moves = await movesSince(since);
    expect(moves).toHaveLength(4);
    const canceledIds = new Set(scheduled.filter((m) => m.state === "scheduled").map((m) => m.project.id));
    for (const m of moves) {
      if (canceledIds.has(m.project.id)) expect(m).toMatchObject({ state: "failed", error_message: CANCELED });
      else expect(m).toMatchObject({ state: "finished", error_message: null });
    }
    // The third page was never scheduled: every project but the two moved stays on default.
    const finishedIds = new Set(moves.filter((m) => m.state === "finished").map((m) => m.project.id));
    expect(finishedIds.size).toBe(2);
    const onDefaultAfter = await projectsOn("default");
    expect(onDefaultBefore.length).toBeGreaterThan(4);
    expect(onDefaultAfter.sort()).toEqual(onDefaultBefore.filter((id) => !finishedIds.has(id)).sort());
    await expectIntact(writers.ids, await writers.stop(), (id) => (finishedIds.has(id) ? "secondary" : "default"));
    // The bulk execution's outcome counts the canceled moves.
    const canceledBy = await call(iso, "GET", `/api/v4/project_repository_storage_moves/${moves.find((m) => m.state === "failed")!.id}/execution`);
    expect(canceledBy.body.history.at(-1)).toMatchObject({ step: "failed", detail: CANCELED });
  });

  it("after the switch (replicated): the move finishes on its destination; what was scheduled is canceled", async () => {
    const writers = await projectsWithWriters(4);
    const since = await lastMoveId();
    const hold = holdAt((point, phase) => point === "moveCleanup" && phase === "before");
    await startBulk("default", "secondary");
    await hold.reached;
    await secondPageScheduled(since);
    expect((await movesSince(since)).filter((m) => m.state === "replicated")).toHaveLength(2);
    expect((await cli("cancel", "projects", "--from", "default")).code).toBe(0);
    hold.release();
    await iso.runtime.settle();
    const moves = await movesSince(since);
    expect(moves.map((m) => m.state).sort()).toEqual(["failed", "failed", "finished", "finished"]);
    expect(moves.filter((m) => m.state === "failed").every((m) => m.error_message === CANCELED)).toBe(true);
    const finishedIds = new Set(moves.filter((m) => m.state === "finished").map((m) => m.project.id));
    await expectIntact(writers.ids, await writers.stop(), (id) => (finishedIds.has(id) ? "secondary" : "default"));
  });

  it("applies to the bulk moves scheduled before it only: a later one runs", async () => {
    const since = await lastMoveId();
    const ids = await projectsOn("default");
    expect(ids.length).toBeGreaterThan(0);
    await startBulk("default", "secondary");
    await iso.runtime.settle();
    const moves = await movesSince(since);
    expect(moves.map((m) => m.state)).toEqual(ids.map(() => "finished"));
    for (const id of ids) expect(await storageOf("project", id)).toBe("secondary");
    // It has ended: there is nothing left to cancel or to slow down, and both say so.
    const gone = { status: 404, body: { message: "404 running project repository storage move off default Not Found" } };
    expect(await call(iso, "POST", "/api/v4/project_repository_storage_moves/cancel", { body: { source_storage_name: "default" } })).toMatchObject(gone);
    expect(await call(iso, "PUT", "/api/v4/project_repository_storage_moves/concurrency", { body: { source_storage_name: "default", concurrency: 3 } })).toMatchObject(gone);
    await expect(cli("concurrency", "projects", "--from", "default", "3")).rejects.toThrow(/404 running project repository storage move off default Not Found/);
  });

  it("refuses bad input in GitLab's shape", async () => {
    const none = await call(iso, "POST", "/api/v4/snippet_repository_storage_moves/cancel", { body: { source_storage_name: "cluster" } });
    expect(none).toMatchObject({ status: 404, body: { message: "404 snippet repository storage move off cluster Not Found" } });
    const missing = await call(iso, "POST", "/api/v4/project_repository_storage_moves/cancel", { body: {} });
    expect(missing.status).toBe(400);
    const zero = await call(iso, "PUT", "/api/v4/project_repository_storage_moves/concurrency", { body: { source_storage_name: "default", concurrency: 0 } });
    expect(zero.status).toBe(400);
    const user = await call(iso, "POST", "/api/v4/project_repository_storage_moves/cancel", { token: null, body: { source_storage_name: "default" } });
    expect(user.status).toBe(401);
    await expect(cli("concurrency", "projects", "--from", "default")).rejects.toThrow(/a whole number of moves above 0/);
  });
});

describe("per-bulk concurrency", () => {
  it("an operator lowers it while the move runs: from the next page, one move at a time", async () => {
    const ids = (await Promise.all([1, 2, 3, 4, 5, 6].map(() => newProject(iso)))).map((p) => p.id);
    for (const id of ids) expect(await storageOf("project", id)).toBe("default");
    const batches: number[] = [];
    let running = 0;
    let mostAfterChange = 0;
    let changed = false;
    let scheduleCalls = 0;
    let release!: () => void;
    let reachedNow!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const reached = new Promise<void>((r) => (reachedNow = r));
    injectMoveFaults(async (point, phase, input: any) => {
      // Hold the second page's scheduling until the operator has changed the concurrency.
      if (point === "moveScheduleBatch" && phase === "before" && ++scheduleCalls === 2) {
        reachedNow();
        await released;
      }
      if (point === "moveStart" && phase === "before") {
        batches.push(input.batch.moves.length);
        running++;
        if (changed) mostAfterChange = Math.max(mostAfterChange, running);
      }
      if ((point === "moveFinish" || point === "moveFail") && phase === "after") running--;
    });
    await startBulk("default", "cluster");
    await reached;
    const { code, lines } = await cli("concurrency", "projects", "--from", "default", "1");
    expect(code).toBe(0);
    expect(lines).toEqual(["project moves off default: at most 1 at once from the next page (batches of 1, 1 at a time)."]);
    changed = true;
    release();
    await iso.runtime.settle();
    // The first page ran as one batch of two; every page scheduled after the change, one move per batch.
    expect(batches).toEqual([2, 1, 1, 1, 1]);
    expect(mostAfterChange).toBe(1);
    for (const id of ids) expect(await storageOf("project", id)).toBe("cluster");
  });
});
