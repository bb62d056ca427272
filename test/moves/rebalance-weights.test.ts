/**
 * Rebalancing by `repository_storages_weighted` (driven by the operator CLI, which asks the instance
 * for the plan and schedules each move through the per-container POST): on three storages weighted
 * 50/30/20, a dry run changes nothing; a real run moves the smallest repositories first until every
 * storage's share of the bytes is within the tolerance of its weight.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { randomBytes } from "node:crypto";
import { fsck, repoPaths } from "../support/git.js";
import { planRebalance } from "../../functions/moves/domain/rebalance-plan.js";
import { runMovesCli } from "../../functions/moves/cli/commands.js";
import { connect } from "../../functions/moves/cli/client.js";
import { startIsolatedRuntime, type IsolatedRuntime } from "./isolated-runtime.js";
import { call, newProject, storageOf } from "./support.js";

let iso: IsolatedRuntime;
beforeAll(async () => {
  iso = await startIsolatedRuntime();
});
afterAll(async () => {
  await iso?.stop();
});

const setWeights = (weights: Record<string, number>) => call(iso, "PUT", "/api/v4/application/settings", { body: { repository_storages_weighted: weights } });

async function cli(...argv: string[]) {
  const lines: string[] = [];
  const code = await runMovesCli(argv, connect({ FORGELINE_URL: iso.baseUrl, FORGELINE_TOKEN: iso.token }), (l) => lines.push(l), { intervalMs: 50 });
  return { code, lines };
}

type Plan = {
  balanced: boolean;
  total_bytes: number;
  storages: Array<{ name: string; target_share: number; share_before: number }>;
  moves: Array<{ kind: string; id: number; from: string; to: string; bytes: number }>;
};
const plan = async (tolerance: number) => {
  const res = await call(iso, "GET", `/api/v4/repository_storages/rebalance_plan?tolerance=${tolerance}`);
  expect(res.status, res.text).toBe(200);
  return res.body as Plan;
};

describe("the plan (pure)", () => {
  it("moves the smallest first, only from storages above their target, and says when the tolerance is out of reach", () => {
    const placed = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ kind: "project" as const, id: n, storage: "a", bytes: n * 10, movable: n !== 1 }));
    const result = planRebalance({ a: 50, b: 30, c: 20 }, placed, 5);
    expect(result.balanced).toBe(true);
    expect(result.moves.map((m) => m.bytes)).toEqual([...result.moves.map((m) => m.bytes)].sort((x, y) => x - y));
    expect(result.moves.every((m) => m.from === "a")).toBe(true);
    expect(result.moves.some((m) => m.id === 1)).toBe(false); // not movable
    for (const s of result.storages) expect(Math.abs(s.share_after - s.target_share)).toBeLessThanOrEqual(5);
    // One huge repository cannot be split: nothing helps, and the plan says so.
    const stuck = planRebalance({ a: 50, b: 50 }, [{ kind: "project", id: 1, storage: "a", bytes: 100, movable: true }], 5);
    expect(stuck).toMatchObject({ balanced: false, moves: [] });
    // The storage furthest above its target holds nothing movable: the next one above gives instead.
    const pinned = planRebalance(
      { a: 20, b: 20, c: 60 },
      [
        { kind: "project", id: 1, storage: "a", bytes: 60, movable: false },
        { kind: "snippet", id: 2, storage: "b", bytes: 20, movable: true },
        { kind: "snippet", id: 3, storage: "b", bytes: 20, movable: true },
      ],
      5,
    );
    expect(pinned.moves).toEqual([{ kind: "snippet", id: 2, from: "b", to: "c", bytes: 20 }]);
    expect(pinned.balanced).toBe(false);
  });
});

describe("GET /repository_storages/rebalance_plan", () => {
  it("is for administrators, and refuses a tolerance that is not a percentage", async () => {
    expect((await call(iso, "GET", "/api/v4/repository_storages/rebalance_plan", { token: null })).status).toBe(401);
    for (const bad of ["abc", "-1", "101"]) {
      const res = await call(iso, "GET", `/api/v4/repository_storages/rebalance_plan?tolerance=${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });
});

describe("npm run moves -- rebalance on storages weighted 50/30/20", () => {
  it("dry run changes nothing; a real run converges, smallest repositories first", async () => {
    expect((await setWeights({ default: 100, secondary: 0, cluster: 0 })).status).toBe(200);
    const projects = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(() => newProject(iso)));
    // Sizes differ: incompressible files of 6 KiB to 60 KiB.
    await Promise.all(
      projects.map(async (p, i) => {
        const res = await call(iso, "POST", `/api/v4/projects/${p.id}/repository/commits`, {
          body: { branch: "main", commit_message: "payload", actions: [{ action: "create", file_path: "blob.bin", content: randomBytes((i + 1) * 6144).toString("base64"), encoding: "base64" }] },
        });
        expect(res.status, res.text).toBe(201);
      }),
    );
    expect((await setWeights({ default: 50, secondary: 30, cluster: 20 })).status).toBe(200);

    const dry = await cli("rebalance", "--dry-run", "--tolerance", "10");
    expect(dry.code).toBe(0);
    expect(dry.lines.at(-1)).toBe("Dry run: nothing was scheduled.");
    expect(dry.lines).toContain(dry.lines.find((l) => /^Plan: \d+ moves, smallest first:$/.test(l)));
    expect((await call(iso, "GET", "/api/v4/project_repository_storage_moves")).body).toEqual([]);
    for (const p of projects) expect(await storageOf("project", p.id)).toBe("default");

    const planned = await plan(10);
    expect(planned.balanced).toBe(true);
    expect(planned.moves.length).toBeGreaterThan(0);
    expect(planned.moves.every((m) => m.from === "default" && m.kind === "project")).toBe(true);
    expect(planned.moves.map((m) => m.bytes)).toEqual([...planned.moves.map((m) => m.bytes)].sort((a, b) => a - b));

    const run = await cli("rebalance", "--tolerance", "10", "--concurrency", "1");
    expect(run.code, run.lines.join("\n")).toBe(0);
    expect(run.lines).toContain(`${planned.moves.length} finished, 0 failed, 0 skipped.`);
    expect(run.lines).toContain("Now within tolerance:");

    // Scheduled in the plan's order (smallest first), each to its planned storage, intact and writable.
    const moves = ((await call(iso, "GET", "/api/v4/project_repository_storage_moves?per_page=100")).body as Array<{ id: number; state: string; project: { id: number }; destination_storage_name: string }>).reverse();
    expect(moves.map((m) => [m.project.id, m.destination_storage_name, m.state])).toEqual(planned.moves.map((m) => [m.id, m.to, "finished"]));
    for (const m of planned.moves) {
      expect(await storageOf("project", m.id)).toBe(m.to);
      for (const dir of repoPaths(m.to, "project", m.id)) fsck(dir);
    }
    const after = await plan(10);
    expect(after).toMatchObject({ balanced: true, moves: [] });
    for (const s of after.storages) expect(Math.abs(s.share_before - s.target_share), s.name).toBeLessThanOrEqual(10);
    expect(after.storages.map((s) => s.target_share)).toEqual([50, 30, 20]);
  });
});
