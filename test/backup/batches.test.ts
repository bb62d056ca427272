/**
 * Backup takes write leases a batch at a time (`archiveBatch`): the archive follows kind and id
 * whatever the batches, no lease outlives the backup, and a repository its batch cannot take — held
 * by a storage move, read-only or not — is waited for on its own and archived after the others,
 * once the move has let go of it.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backup } from "../../functions/backup/backup.js";
import { verifyArchive } from "../../functions/backup/verify.js";
import { silentProgress, type ProgressSink } from "../../functions/backup/progress.js";
import { getItem, updateItem } from "../../functions/platform/db/table.js";
import { ok, privateRuntime, type PrivateRuntime } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "forgeline-batches-"));
let rt: PrivateRuntime;
let projects: number[];
let snippets: number[];
let n = 0;

beforeAll(async () => {
  rt = await privateRuntime("glpat-backup-batches-admin-0001");
  projects = [];
  for (let i = 0; i < 6; i++) projects.push((await ok(rt, "POST", "/api/v4/projects", { name: `Batch ${i}`, initialize_with_readme: true })).id);
  snippets = [];
  for (let i = 0; i < 2; i++) snippets.push((await ok(rt, "POST", "/api/v4/snippets", { title: `S${i}`, files: [{ file_path: "a.txt", content: `${i}\n` }] })).id);
}, 120_000);

afterAll(async () => {
  await rt?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The repositories in the order the archive holds them (`repositories/<kind>/<id>`, first entry of each). */
function repositoryOrder(file: string): string[] {
  const listing = execFileSync("tar", ["tf", file], { encoding: "utf8" }).trim().split("\n");
  const order: string[] = [];
  for (const path of listing) {
    const m = /^repositories\/([a-z-]+)\/(\d+)\//.exec(path);
    if (m && order.at(-1) !== `${m[1]}/${m[2]}`) order.push(`${m[1]}/${m[2]}`);
  }
  return order;
}

const sorted = () => [...projects.map((id) => `project/${id}`), ...snippets.map((id) => `snippet/${id}`)];
const leaseOf = async (id: number) => (await getItem<{ writeLease?: unknown }>(`PROJECT#${id}`, "PROJECT"))!.writeLease;

describe("backup leases a batch at a time", () => {
  it("archives in order of kind and id whatever the batches, and leaves no lease behind", async () => {
    // One batch for everything, then batches of two that copy one repository each and leave the rest for later.
    for (const leaseBatch of [undefined, { size: 2, holdMs: 0 }]) {
      const file = join(work, `order-${n++}.tar`);
      const result = await backup({ file, leaseBatch });
      expect(result.repositories).toBe(projects.length + snippets.length);
      expect(repositoryOrder(file)).toEqual(sorted());
      expect((await verifyArchive(file)).repositories).toHaveLength(projects.length + snippets.length);
      for (const id of projects) expect(await leaseOf(id)).toBeUndefined();
    }
  }, 120_000);

  it("waits alone for repositories held by a storage move (switched and writable, or still read-only) and archives them last", async () => {
    const [switched, readOnly] = [projects[1]!, projects[3]!];
    const key = (id: number) => ({ pk: `PROJECT#${id}`, sk: "PROJECT" });
    await updateItem({ ...key(switched), update: "SET storageMoveId = :m", values: { ":m": 4242 } });
    await updateItem({ ...key(readOnly), update: "SET storageMoveId = :m, readOnly = :t", values: { ":m": 4243, ":t": true } });
    // The "moves" end only once the backup says it waits for their repository: proof it did not copy them held.
    const waitedFor = new Set<number>();
    const releases: Array<Promise<unknown>> = [];
    const progress: ProgressSink = {
      ...silentProgress,
      update(_done, detail) {
        const id = Number(/waiting for project (\d+)/.exec(detail ?? "")?.[1]);
        if (!id || waitedFor.has(id)) return;
        waitedFor.add(id);
        releases.push(updateItem({ ...key(id), update: "REMOVE storageMoveId, readOnly" }));
      },
    };
    const file = join(work, `held-${n++}.tar`);
    await backup({ file, progress, waitMs: 60_000 });
    await Promise.all(releases);
    expect([...waitedFor].sort()).toEqual([switched, readOnly].sort());
    const others = sorted().filter((r) => r !== `project/${switched}` && r !== `project/${readOnly}`);
    const order = repositoryOrder(file);
    expect(order.slice(0, others.length)).toEqual(others);
    expect(order.slice(others.length).sort()).toEqual([`project/${switched}`, `project/${readOnly}`].sort());
    expect((await verifyArchive(file)).repositories).toHaveLength(projects.length + snippets.length);
    for (const id of projects) expect(await leaseOf(id)).toBeUndefined();
  }, 120_000);
});
