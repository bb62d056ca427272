/**
 * Fault injection at every task step of a move, on a runtime of this file's own whose task handlers
 * run in this process (so `injectMoveFaults` reaches them). Real faults where one can be made for
 * real (a write that never drains, a destination path that cannot be written); elsewhere an injected
 * throw or crash. Each case ends with the repository writable, on one storage, byte-identical, the
 * record `failed`/`cleanup failed` with a message — and a rescheduled move that finishes.
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from "vitest";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fsck, repoPaths } from "../support/git.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { checksum, hashedRelativePath, repositoryExists } from "../../functions/hosting/domain/git/index.js";
import { injectMoveFaults } from "../../functions/moves/domain/fault-injection.js";
import { projectWikiPath } from "../../functions/hosting/domain/project-wiki.js";
import { StorageIOError } from "../../functions/moves/domain/errors.js";
import { findMove } from "../../functions/moves/domain/records.js";
import { startMoves } from "../../functions/moves/domain/steps.js";
import { drainPolicy } from "../../functions/moves/domain/execution.js";
import { startIsolatedRuntime, type IsolatedRuntime } from "./isolated-runtime.js";
import { call, commit, newProject, scheduleMove, storageOf, waitForMove } from "./support.js";

let iso: IsolatedRuntime;
beforeAll(async () => {
  iso = await startIsolatedRuntime();
});
afterAll(async () => {
  await iso?.stop();
});
afterEach(() => injectMoveFaults(undefined));

const permanent = (task: string) => new StorageIOError(`injected: ${task} lost its storage`);
const crash = () => Object.assign(new Error("RequestId: 1 Error: Runtime exited with error: signal: killed"), { name: "Runtime.ExitError" });

/** Makes `task` throw `error()` at `phase`, the first `times` times it runs. */
function faultAt(task: string, phase: "before" | "after", error: () => Error, times = Infinity) {
  let thrown = 0;
  injectMoveFaults((name, at) => {
    if (name === task && at === phase && thrown < times) {
      thrown++;
      throw error();
    }
  });
}

const rel = (id: number) => hashedRelativePath("project", id);

async function projectOnDefault() {
  const project = await newProject(iso);
  expect(await storageOf("project", project.id)).toBe("default");
  return { id: project.id, before: await checksum("default", rel(project.id)) };
}

/** Writable, on `storage` only (unless `leftover` is allowed), identical, and then movable again. */
async function expectRecovered(id: number, before: string, storage: string, other: string, opts: { leftover?: boolean } = {}) {
  expect(await storageOf("project", id)).toBe(storage);
  expect(await checksum(storage, rel(id))).toBe(before);
  for (const dir of repoPaths(storage, "project", id)) fsck(dir);
  if (!opts.leftover) expect(await repositoryExists(other, rel(id))).toBe(false);
  expect((await commit(iso, id, "writable again")).status).toBe(201);
  injectMoveFaults(undefined);
  const again = await scheduleMove(iso, "project", id, other);
  expect((await waitForMove(iso, "project", again.id)).state).toBe("finished");
  expect(await storageOf("project", id)).toBe(other);
}

describe("a fault at each step of a move", () => {
  it("StartExecution refused: 503, the move is recorded failed and the repository stays writable", async () => {
    const { id, before } = await projectOnDefault();
    const linked = process.env.SST_RESOURCE_StorageMoveMachine!;
    process.env.SST_RESOURCE_StorageMoveMachine = JSON.stringify({ arn: "arn:aws:states:us-east-1:000000000000:stateMachine:Missing" });
    try {
      const res = await call(iso, "POST", `/api/v4/projects/${id}/repository_storage_moves`, { body: { destination_storage_name: "cluster" } });
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/^503 Service Unavailable - the project repository move could not be started/);
    } finally {
      process.env.SST_RESOURCE_StorageMoveMachine = linked;
    }
    const [record] = (await call(iso, "GET", `/api/v4/projects/${id}/repository_storage_moves`)).body;
    expect(record.state).toBe("failed");
    expect(record.error_message).toMatch(/^Could not start the storage move execution: State Machine Does Not Exist/);
    await expectRecovered(id, before, "default", "cluster");
  });

  it("StartMove: failed, still on the source", async () => {
    const { id, before } = await projectOnDefault();
    faultAt("moveStart", "before", () => permanent("moveStart"));
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done).toMatchObject({ state: "failed", error_message: "injected: moveStart lost its storage" });
    await expectRecovered(id, before, "default", "cluster");
  });

  it("StartMove: a crash after the start was recorded is retried and resumes the move", async () => {
    const { id, before } = await projectOnDefault();
    faultAt("moveStart", "after", crash, 1);
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done.state).toBe("finished");
    expect(await checksum("cluster", rel(id))).toBe(before);
  });

  it("StartMove: an execution started again resumes a switched move at the cleanup, another one does nothing", async () => {
    const { id } = await projectOnDefault();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    injectMoveFaults((name) => (name === "moveCleanup" ? held : undefined));
    const move = await scheduleMove(iso, "project", id, "cluster");
    try {
      while ((await findMove("project", move.id))?.state !== "replicated") await new Promise((r) => setTimeout(r, 20));
      const record = (await findMove("project", move.id))!;
      const batch = { moves: [{ moveId: move.id, kind: "project" as const, containerId: id }], drain: drainPolicy() };
      expect((await startMoves({ batch, executionId: record.executionArn })).moves[0]).toMatchObject({ stage: "replicated", sourceStorage: "default", destinationStorage: "cluster" });
      expect((await startMoves({ batch, executionId: "arn:aws:states:us-east-1:000000000000:execution:other" })).moves[0]!.stage).toBe("done");
      // Switched: writable on the destination already, but no second move while this one may still delete a copy.
      expect((await commit(iso, id, "after the switch")).status).toBe(201);
      const second = await call(iso, "POST", `/api/v4/projects/${id}/repository_storage_moves`, { body: { destination_storage_name: "secondary" } });
      expect(second).toMatchObject({ status: 400, body: { message: { project: ["has a repository storage move in progress"] } } });
    } finally {
      release(); // never leave the execution hanging, or the runtime cannot stop
    }
    expect((await waitForMove(iso, "project", move.id)).state).toBe("finished");
  });

  it("CheckWrites: a write that never drains times out with GitLab's message", async () => {
    const { id, before } = await projectOnDefault();
    process.env.FORGELINE_MOVE_DRAIN_TIMEOUT_SECONDS = "1";
    try {
      await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET writeLease = :l", values: { ":l": { id: "stuck", expiresAt: Date.now() + 600_000 } } });
      const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
      expect(done).toMatchObject({ state: "failed", error_message: "Timeout waiting for project repository pushes" });
    } finally {
      delete process.env.FORGELINE_MOVE_DRAIN_TIMEOUT_SECONDS;
      await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "REMOVE writeLease" });
    }
    await expectRecovered(id, before, "default", "cluster");
  });

  it("Replicate: a destination replica that cannot be written fails the move and leaves no copy", async () => {
    const { id, before } = await projectOnDefault();
    // A file where replica 2 needs a directory: a real ENOTDIR from the file system.
    const blocked = dirname(repoPaths("cluster", "project", id)[1]!);
    mkdirSync(dirname(blocked), { recursive: true });
    writeFileSync(blocked, "not a directory");
    try {
      const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
      expect(done.state).toBe("failed");
      expect(done.error_message).toMatch(/ENOTDIR/);
      // The operator's view of the move says why, on its `failed` entry.
      const view = (await call(iso, "GET", `/api/v4/project_repository_storage_moves/${done.id}/execution`)).body;
      expect(view.error_message).toBe(done.error_message);
      expect(view.history.find((h: { step: string }) => h.step === "failed")?.detail).toBe(done.error_message);
      expect(done.error_message.length).toBeLessThanOrEqual(256);
      for (const path of [repoPaths("cluster", "project", id)[0]!, repoPaths("cluster", "project", id)[2]!]) {
        expect((await import("node:fs")).existsSync(path)).toBe(false);
      }
    } finally {
      rmSync(blocked, { force: true });
    }
    await expectRecovered(id, before, "default", "cluster");
  });

  it("Replicate: a crash that keeps happening is retried with backoff, then fails the move", async () => {
    const { id, before } = await projectOnDefault();
    faultAt("moveReplicate", "after", crash);
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done).toMatchObject({ state: "failed", error_message: "RequestId: 1 Error: Runtime exited with error: signal: killed" });
    await expectRecovered(id, before, "default", "cluster");
  });

  it("Replicate: a crash once is retried and the move finishes", async () => {
    const { id, before } = await projectOnDefault();
    faultAt("moveReplicate", "before", crash, 1);
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done.state).toBe("finished");
    expect(await checksum("cluster", rel(id))).toBe(before);
    expect(await repositoryExists("default", rel(id))).toBe(false);
  });

  it("a resumed move removes the copies its interrupted tries left (named after it), and nothing of anyone else's", async () => {
    const { id, before } = await projectOnDefault();
    const leftovers: string[] = [];
    const plant = (path: string, owner: string, suffix = "") => {
      const dir = `${path}.tmp_forgeline_${owner}_0123abcd${suffix}`;
      mkdirSync(join(dir, "objects"), { recursive: true });
      leftovers.push(dir);
      return dir;
    };
    let foreign = "";
    injectMoveFaults((name, phase, input) => {
      const moveId = (input as { moves?: Array<{ moveId: number }> }).moves?.[0]?.moveId;
      // What a killed earlier try of this move's copy and cleanup would have left.
      if (name === "moveReplicate" && phase === "before") {
        for (const path of repoPaths("cluster", "project", id)) plant(path, `mv-project-${moveId}`);
        foreign = plant(repoPaths("cluster", "project", id)[0]!, `mv-project-${moveId! + 1000}`);
      }
      if (name === "moveCleanup" && phase === "before") plant(repoPaths("default", "project", id)[0]!, `mv-project-${moveId}`, ".deleting");
    });
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done.state).toBe("finished");
    expect(leftovers.filter((dir) => existsSync(dir))).toEqual([foreign]);
    rmSync(foreign, { recursive: true });
    expect(await checksum("cluster", rel(id))).toBe(before);
  });

  it("SwitchStorage: failed before the switch, the verified copy is removed, still on the source", async () => {
    const { id, before } = await projectOnDefault();
    faultAt("moveSwitch", "before", () => permanent("moveSwitch"));
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done).toMatchObject({ state: "failed", error_message: "injected: moveSwitch lost its storage" });
    await expectRecovered(id, before, "default", "cluster");
  });

  it("SwitchStorage: failed with a project wiki, both verified copies are removed and both stay on the source", async () => {
    const { id, before } = await projectOnDefault();
    expect((await call(iso, "POST", `/api/v4/projects/${id}/wikis`, { body: { title: "Home", content: "kept" } })).status).toBe(201);
    const wikiRel = projectWikiPath(rel(id));
    const wikiBefore = await checksum("default", wikiRel);
    faultAt("moveSwitch", "before", () => permanent("moveSwitch"));
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done).toMatchObject({ state: "failed", error_message: "injected: moveSwitch lost its storage" });
    expect(await checksum("default", wikiRel)).toBe(wikiBefore);
    expect(await repositoryExists("cluster", wikiRel)).toBe(false);
    expect((await call(iso, "GET", `/api/v4/projects/${id}/wikis/Home`)).body.content).toBe("kept");
    await expectRecovered(id, before, "default", "cluster");
    expect(await repositoryExists("default", wikiRel)).toBe(false);
    expect(await checksum("cluster", wikiRel)).toBe(wikiBefore);
  });

  it("SwitchStorage: a crash after the committed switch is retried idempotently and the move finishes", async () => {
    const { id, before } = await projectOnDefault();
    faultAt("moveSwitch", "after", crash, 1);
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done.state).toBe("finished");
    expect(await storageOf("project", id)).toBe("cluster");
    expect(await checksum("cluster", rel(id))).toBe(before);
    expect(await repositoryExists("default", rel(id))).toBe(false);
  });

  it("Cleanup: cleanup failed, the repository lives (writable) on the destination", async () => {
    const { id, before } = await projectOnDefault();
    faultAt("moveCleanup", "before", () => permanent("moveCleanup"));
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done).toMatchObject({ state: "cleanup failed", error_message: "injected: moveCleanup lost its storage" });
    // As in GitLab, the source copy the cleanup could not remove is left behind; a move back replaces it.
    await expectRecovered(id, before, "cluster", "default", { leftover: true });
  });

  it("Finish: cleanup failed after the source copy is gone, on the destination", async () => {
    const { id, before } = await projectOnDefault();
    faultAt("moveFinish", "before", () => permanent("moveFinish"));
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done).toMatchObject({ state: "cleanup failed", error_message: "injected: moveFinish lost its storage" });
    await expectRecovered(id, before, "cluster", "default");
  });

  it("MarkFailed: the failure path itself is retried until the failure is recorded", async () => {
    const { id, before } = await projectOnDefault();
    let failures = 0;
    injectMoveFaults((name) => {
      if (name === "moveStart") throw permanent("moveStart");
      if (name === "moveFail" && failures++ === 0) throw crash();
    });
    const done = await waitForMove(iso, "project", (await scheduleMove(iso, "project", id, "cluster")).id);
    expect(done).toMatchObject({ state: "failed", error_message: "injected: moveStart lost its storage" });
    expect(failures).toBeGreaterThanOrEqual(2);
    await expectRecovered(id, before, "default", "cluster");
  });
});

describe("a fault in a batch of moves", () => {
  it("fails only the move it hits: the others of its batch finish", async () => {
    const projects = await Promise.all([1, 2, 3].map(() => projectOnDefault()));
    const [first, blocked, last] = projects as [(typeof projects)[0], (typeof projects)[0], (typeof projects)[0]];
    const blockedPath = dirname(repoPaths("cluster", "project", blocked.id)[1]!);
    mkdirSync(dirname(blockedPath), { recursive: true });
    writeFileSync(blockedPath, "not a directory");
    process.env.FORGELINE_MOVE_BATCH_SIZE = "25"; // every project on default in one batch
    try {
      const res = await call(iso, "POST", "/api/v4/project_repository_storage_moves", { body: { source_storage_name: "default", destination_storage_name: "cluster" } });
      expect(res.status).toBe(202);
      const latest = async (id: number) => (await call(iso, "GET", `/api/v4/projects/${id}/repository_storage_moves?per_page=1`)).body[0];
      const moves = await Promise.all(projects.map(async ({ id }) => {
        for (;;) {
          const move = await latest(id);
          if (move && ["finished", "failed", "cleanup failed"].includes(move.state)) return move;
          await new Promise((r) => setTimeout(r, 50));
        }
      }));
      expect(moves.map((m) => m.state)).toEqual(["finished", "failed", "finished"]);
      expect(moves[1].error_message).toMatch(/ENOTDIR/);
      for (const { id, before } of [first, last]) {
        expect(await storageOf("project", id)).toBe("cluster");
        expect(await checksum("cluster", rel(id))).toBe(before);
        expect(await repositoryExists("default", rel(id))).toBe(false);
      }
    } finally {
      delete process.env.FORGELINE_MOVE_BATCH_SIZE;
      rmSync(blockedPath, { force: true });
    }
    await expectRecovered(blocked.id, blocked.before, "default", "cluster");
  });
});
