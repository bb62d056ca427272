/**
 * Planning a storage-wide move and refusing moves that do not fit, on a runtime of this file's own
 * whose `secondary` storage has a quota (`capacityBytes`, 250 kB): the plan's bytes per type, the
 * destination's free space per replica, the copy rate measured by earlier moves; the bulk and the
 * per-container POSTs refused (400, nothing scheduled, repositories still writable) when the bytes
 * with the 10 % margin would not fit; `npm run moves -- plan` exiting 1 then.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { defaultLocalConfig } from "../../local/runtime.js";
import { runMovesCli } from "../../functions/moves/cli/commands.js";
import { connect } from "../../functions/moves/cli/client.js";
import { startIsolatedRuntime, type IsolatedRuntime } from "./isolated-runtime.js";
import { call, commit, newProject, scheduleMove, storageOf, waitForMove } from "./support.js";

const CAPACITY = 250_000;
let iso: IsolatedRuntime;
beforeAll(async () => {
  iso = await startIsolatedRuntime((dataDir) => {
    const config = defaultLocalConfig(dataDir);
    return { storages: { ...config.storages, secondary: { kind: "local", path: join(dataDir, "storages", "secondary"), capacityBytes: CAPACITY } } };
  });
});
afterAll(async () => {
  await iso?.stop();
});

/** A project on `default` with about 100 kB of incompressible data. */
async function projectWithData() {
  const project = await newProject(iso);
  const res = await call(iso, "POST", `/api/v4/projects/${project.id}/repository/commits`, {
    body: { branch: "main", commit_message: "data", actions: [{ action: "create", file_path: "data.bin", content: randomBytes(100_000).toString("base64"), encoding: "base64" }] },
  });
  expect(res.status, res.text).toBe(201);
  return project;
}

const plan = async (to: string) => {
  const res = await call(iso, "GET", `/api/v4/repository_storages/move_plan?source_storage_name=default&destination_storage_name=${to}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe("planning a storage-wide move, and the full-destination refusal", () => {
  it("plans, refuses what does not fit in both POSTs' shapes, and moves what does", async () => {
    const projects = [];
    for (let i = 0; i < 4; i++) projects.push(await projectWithData());
    const inventory = (await call(iso, "GET", "/api/v4/repository_storages/inventory")).body.find((s: { name: string }) => s.name === "default");
    const onDefault = inventory.projects.size_bytes + inventory.project_wikis.size_bytes;

    const toSecondary = await plan("secondary");
    expect(toSecondary.types.find((t: { type: string }) => t.type === "project")).toEqual({ type: "project", repositories: 4, bytes: onDefault });
    expect(toSecondary.needed_bytes).toBe(Math.ceil(toSecondary.total_bytes * 1.1));
    expect(toSecondary.destination_replicas).toEqual([{ replica: 1, free_bytes: CAPACITY }]);
    expect(toSecondary).toMatchObject({ fits: false, copy_bytes_per_second: null, estimated_seconds: null });
    const toCluster = await plan("cluster");
    expect(toCluster.destination_replicas.map((r: { replica: number }) => r.replica)).toEqual([1, 2, 3]);
    // No repository was ever written to the cluster: its folders exist from the start all the same,
    // so its free space is known (statfs) rather than unknown.
    for (const r of toCluster.destination_replicas) expect(r.free_bytes, `cluster replica ${r.replica}`).toBeGreaterThan(0);
    expect(toCluster.fits).toBe(true);

    const lines: string[] = [];
    const cli = (...argv: string[]) => runMovesCli(argv, connect({ FORGELINE_URL: iso.baseUrl, FORGELINE_TOKEN: iso.token }), (l) => lines.push(l));
    expect(await cli("plan", "--from", "default", "--to", "secondary")).toBe(1);
    expect(lines.at(-1)).toBe("It does not fit: scheduling it would be refused.");
    expect(lines).toContain("  secondary replica 1: 244.1 KiB free");

    // The storage-wide POST (Grape's shape): refused, nothing scheduled, everything still writable.
    const bulk = await call(iso, "POST", "/api/v4/project_repository_storage_moves", { body: { source_storage_name: "default", destination_storage_name: "secondary" } });
    expect(bulk).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^secondary does not have room: \d+ bytes needed \(with a 10% margin\), \d+ free$/) } });
    expect((await call(iso, "GET", "/api/v4/project_repository_storage_moves")).body).toEqual([]);
    for (const p of projects) expect((await commit(iso, p.id, "still writable")).status).toBe(201);

    // Per container: two fit in the quota, the third does not (ActiveRecord's shape).
    for (const p of projects.slice(0, 2)) {
      const move = await scheduleMove(iso, "project", p.id, "secondary");
      expect((await waitForMove(iso, "project", move.id)).state).toBe("finished");
      expect(await storageOf("project", p.id)).toBe("secondary");
    }
    const third = await call(iso, "POST", `/api/v4/projects/${projects[2]!.id}/repository_storage_moves`, { body: { destination_storage_name: "secondary" } });
    expect(third).toMatchObject({ status: 400, body: { message: { destination_storage_name: [expect.stringMatching(/^secondary does not have room/)] } } });
    expect(await storageOf("project", projects[2]!.id)).toBe("default");
    expect((await commit(iso, projects[2]!.id, "writable after the refusal")).status).toBe(201);

    // The moves that ran measured this instance's copy rate: the plan now estimates a duration.
    const after = await plan("cluster");
    expect(after.copy_bytes_per_second).toBeGreaterThan(0);
    expect(after.estimated_seconds).toBe(Math.ceil(after.total_bytes / after.copy_bytes_per_second));
    expect((await plan("secondary")).destination_replicas[0].free_bytes).toBeLessThan(CAPACITY / 2);
  });

  it("refuses a plan between unknown or equal storages in Grape's shape", async () => {
    expect(await call(iso, "GET", "/api/v4/repository_storages/move_plan?source_storage_name=default&destination_storage_name=nowhere")).toMatchObject({ status: 400, body: { error: "destination_storage_name does not have a valid value" } });
    expect((await call(iso, "GET", "/api/v4/repository_storages/move_plan?source_storage_name=default&destination_storage_name=default")).status).toBe(400);
    expect((await call(iso, "GET", "/api/v4/repository_storages/move_plan?source_storage_name=default")).status).toBe(400);
  });
});
