/**
 * Acceptance of backup and restore (issue 7), on private persistent runtimes with the real CLIs:
 * 1. a populated running instance → `npm run backup` → `npm run restore` into a fresh instance:
 *    every table item, every API answer and every repository's refs identical, `git fsck` clean;
 * 2. a backup taken while the instance changes (a project deleted, a commit, a storage move) is
 *    consistent, and restoring it with `default=cluster` puts those repositories on every replica
 *    of the cluster, which the inventory shows;
 * 3. a flipped byte or a truncated archive restores nothing; a non-empty target is refused.
 */
import { describe, it, expect, afterAll } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backup } from "../../functions/backup/backup.js";
import { verifyArchive } from "../../functions/backup/verify.js";
import { restore } from "../../functions/backup/restore.js";
import type { Manifest } from "../../functions/backup/manifest.js";
import { replicaPaths } from "../../functions/hosting/domain/git/index.js";
import { cli, call, ok, privateRuntime, tableLines, type PrivateRuntime } from "./support.js";
import { populate, snapshot, PROJECTS, type Population } from "./populate.js";
import { damagedCopies, storageLeftovers } from "./damage.js";
import { startSimulatedMove } from "./simulated-move.js";

const SOURCE_TOKEN = "glpat-backup-source-admin-0001";
const work = mkdtempSync(join(tmpdir(), "forgeline-archives-"));
const archive = join(work, "instance.tar");
const during = join(work, "during.tar");
let source: PrivateRuntime | undefined;
let target: PrivateRuntime | undefined;
let pop: Population;
let before: Record<string, unknown>;
let lines: string[];
let manifest: Manifest;
const refs = new Map<string, string>();

/** The population's repositories: its projects and their wikis, 8 snippets and 3 group wikis (`populate.ts`). */
const repositories = () => PROJECTS + pop.projectWikis.length + 8 + 3;

const refsOf = (gitdir: string) => execFileSync("git", ["--git-dir", gitdir, "for-each-ref", "--format=%(objectname) %(refname)"], { encoding: "utf8" });
const fsck = (gitdir: string) => execFileSync("git", ["--git-dir", gitdir, "fsck", "--strict", "--no-progress"], { stdio: "pipe" });

afterAll(async () => {
  await source?.stop();
  await target?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe.sequential("backup and restore of a whole instance", () => {
  it("backs up a populated, running instance with `npm run backup`", async () => {
    source = await privateRuntime(SOURCE_TOKEN);
    pop = await populate(source);
    before = await snapshot(source, pop);
    lines = await tableLines();
    const res = await cli("backup", [archive], source.dataDir);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`Backing up the instance running at ${source.baseUrl}`);
    expect(res.stdout).toMatch(new RegExp(`Backup written to .*instance\\.tar: \\d+ table items, ${repositories()} repositories`));

    const listing = execFileSync("tar", ["tf", archive], { encoding: "utf8" }).trim().split("\n");
    expect(listing.at(-1)).toBe("manifest.json");
    expect(listing).toContain("table/items-0000.jsonl");
    manifest = await verifyArchive(archive);
    expect(manifest.counts.items).toBe(lines.length);
    expect(manifest.repositories.filter((r) => r.kind === "project")).toHaveLength(PROJECTS);
    expect(manifest.repositories.filter((r) => r.kind === "snippet")).toHaveLength(8);
    expect(manifest.repositories.filter((r) => r.kind === "group")).toHaveLength(3);
    // A project's wiki is archived beside its project, from the same storage.
    const wikis = manifest.repositories.filter((r) => r.kind === "project-wiki");
    expect(wikis.map((r) => r.id).sort()).toEqual([...pop.projectWikis].sort());
    for (const wiki of wikis) expect(wiki.storage).toBe(manifest.repositories.find((r) => r.kind === "project" && r.id === wiki.id)!.storage);
    expect(new Set(manifest.repositories.map((r) => r.storage))).toEqual(new Set(["default", "secondary", "cluster"]));
    for (const r of manifest.repositories) refs.set(`${r.kind}/${r.id}`, refsOf(replicaPaths(r.storage, r.relative_path)[0]!));
    expect(readFileSync(archive).includes(Buffer.from(SOURCE_TOKEN))).toBe(false); // tokens are hashes
  }, 400_000);

  it("stays consistent while the instance changes during the backup", async () => {
    const admin = source!;
    const [moved, committed, deleted] = pop.projects.slice(-3) as [number, number, number];
    const from = (await ok(admin, "GET", `/api/v4/projects/${moved}`)).repository_storage as string;
    const destination = from === "secondary" ? "cluster" : "secondary";
    let created = 0;
    let seam: Promise<void> | undefined;
    let move: { done: Promise<void> } | undefined;
    try {
      const result = await backup({
        file: during,
        waitMs: 60_000,
        // Several repositories are prepared at once: the changes are made once, and every
        // repository waits for them, so none is copied before the move holds its repository.
        beforeRepository: () =>
          (seam ??= (async () => {
            created = (await ok(admin, "POST", "/api/v4/projects", { name: "born during backup", initialize_with_readme: true })).id;
            await ok(admin, "DELETE", `/api/v4/projects/${deleted}`, undefined, 202);
            await ok(admin, "POST", `/api/v4/projects/${committed}/repository/commits`, { branch: "main", commit_message: "During the backup", actions: [{ action: "create", file_path: "late.txt", content: "late\n" }] });
            move = await startSimulatedMove(moved, destination);
          })()),
      });
      await move?.done;
      expect(result.droppedItems).toBeGreaterThan(0); // the deleted project and its claim, members, markers
      const m = await verifyArchive(during);
      const ids = m.repositories.filter((r) => r.kind === "project").map((r) => r.id);
      expect(ids).not.toContain(deleted);
      expect(ids).not.toContain(created);
      // The backup waited for the move to let go of the repository: the archive has it on the destination.
      expect(m.repositories.find((r) => r.kind === "project" && r.id === moved)!.storage).toBe(destination);
    } finally {
      await source!.stop({ keepData: true });
    }
  }, 300_000);

  it("restores into a fresh empty instance: every item, API answer and repository identical", async () => {
    target = await privateRuntime("glpat-backup-target-admin-0001");
    const res = await cli("restore", [archive], target.dataDir);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`Restored \\d+ table items and ${repositories()} repositories`));
    expect(await tableLines()).toEqual(lines);
    expect(await snapshot({ baseUrl: target.baseUrl, token: SOURCE_TOKEN }, pop)).toEqual(before);
    // The fresh instance's bootstrap items were replaced: its own token no longer works.
    expect((await call(target, "GET", "/api/v4/user")).status).toBe(401);
    for (const r of manifest.repositories) {
      for (const gitdir of replicaPaths(r.storage, r.relative_path)) {
        expect(refsOf(gitdir), `${r.kind} ${r.id}`).toBe(refs.get(`${r.kind}/${r.id}`));
        fsck(gitdir);
      }
    }
  }, 300_000);

  it("refuses a non-empty instance without --force, and replaces it with --force", async () => {
    const refused = await cli("restore", [archive], target!.dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/The target instance is not empty \(found (project|group|snippet|user) .*run it again with --force.*Nothing was restored\./s);
    expect(await tableLines()).toEqual(lines);
    const forced = await cli("restore", [archive, "--force"], target!.dataDir);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await tableLines()).toEqual(lines);
    await target!.stop();
    target = undefined;
  }, 300_000);

  it("detects a flipped byte or a truncated archive and leaves the target empty", async () => {
    target = await privateRuntime("glpat-backup-empty-admin-00001");
    const empty = await tableLines();
    const [first, ...others] = damagedCopies(during, work);
    // The operator's command once, for what it prints and its exit code…
    const res = await cli("restore", [first!.file], target.dataDir);
    expect(res.code, first!.what).toBe(1);
    expect(res.stderr, first!.what).toMatch(/Error: The backup archive is damaged: .*Nothing was restored\./);
    expect(res.stderr, first!.what).toMatch(first!.message);
    expect(await tableLines(), first!.what).toEqual(empty);
    expect(storageLeftovers(target.dataDir), first!.what).toEqual([]);
    // …and the same restore the command calls for every other kind of damage, in this process
    // (attached to the same target), without a process start per archive.
    for (const bad of others) {
      const refused = await restore({ file: bad.file }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused, bad.what).toBeInstanceOf(Error);
      expect((refused as Error).message, bad.what).toMatch(/^The backup archive is damaged: .*Nothing was restored\.$/);
      expect((refused as Error).message, bad.what).toMatch(bad.message);
      expect(await tableLines(), bad.what).toEqual(empty);
      expect(storageLeftovers(target.dataDir), bad.what).toEqual([]);
    }
    expect((await call(target, "GET", "/api/v4/user")).status).toBe(200);
  }, 300_000);

  it("restores with default=cluster onto every cluster replica, and the inventory shows it", async () => {
    const m = await verifyArchive(during);
    const res = await cli("restore", [during, "default=cluster", "--progress"], target!.dataDir);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/\[#+\] 100% Restoring repositories/); // the progress bar, forced
    const admin = { baseUrl: target!.baseUrl, token: SOURCE_TOKEN };
    const count = (storage: string, kind: string) => m.repositories.filter((r) => r.storage === storage && r.kind === kind).length;
    const inventory = await ok(admin, "GET", "/api/v4/repository_storages/inventory");
    const byName = Object.fromEntries(inventory.map((s: { name: string }) => [s.name, s]));
    for (const [kind, field] of [["project", "projects"], ["project-wiki", "project_wikis"], ["snippet", "snippets"], ["group", "group_wikis"]] as const) {
      expect(byName.default[field].count, kind).toBe(0);
      expect(byName.secondary[field].count, kind).toBe(count("secondary", kind));
      expect(byName.cluster[field].count, kind).toBe(count("cluster", kind) + count("default", kind));
    }
    expect(byName.cluster.replicas).toBe(3);
    for (const r of m.repositories) {
      const storage = r.storage === "default" ? "cluster" : r.storage;
      const copies = replicaPaths(storage, r.relative_path);
      for (const gitdir of copies) fsck(gitdir);
      expect(new Set(copies.map(refsOf)).size, `${r.kind} ${r.id}`).toBe(1);
    }
    expect(await ok(admin, "GET", "/api/v4/projects?repository_storage=default")).toEqual([]);
    const [, committed, deleted] = pop.projects.slice(-3) as [number, number, number];
    expect((await call(admin, "GET", `/api/v4/projects/${deleted}`)).status).toBe(404);
    expect((await call(admin, "GET", "/api/v4/projects/root%2Fborn-during-backup")).status).toBe(404);
    const commits = await ok(admin, "GET", `/api/v4/projects/${committed}/repository/commits`);
    expect(commits[0].title).toBe("During the backup");
    // The deleted project's path claim left with it: the path can be taken again.
    const path = (before[`/api/v4/projects/${deleted}`] as { body: { path: string; namespace: { id: number; kind: string } } }).body;
    const again = await call(admin, "POST", "/api/v4/projects", { name: "again", path: path.path, ...(path.namespace.kind === "group" ? { namespace_id: path.namespace.id } : {}) });
    expect(again.status, again.text).toBe(201);
    expect((await ok(admin, "GET", "/api/v4/application/settings")).repository_storages_weighted).toMatchObject({ default: 0, cluster: 50 });
    await target!.stop();
    target = undefined;
  }, 300_000);

  it("`npm run inventory` starts its own stand-ins on a stopped instance's data folder", async () => {
    const res = await cli("inventory", ["--json"], source!.dataDir);
    expect(res.code, res.stderr).toBe(0);
    const rows = JSON.parse(res.stdout) as Array<{ name: string; projects: { count: number } }>;
    const total = rows.reduce((n, r) => n + r.projects.count, 0);
    expect(total).toBe(PROJECTS); // one deleted, one created during the second backup
    expect(rows.map((r) => r.name)).toEqual(["default", "secondary", "cluster"]);
    const table = await cli("inventory", [], source!.dataDir);
    expect(table.stdout).toMatch(/storage\s+kind\s+replicas\s+projects\s+size\s+project wikis\s+size\s+snippets\s+size\s+group wikis\s+size/);
    expect(table.stdout).toMatch(/the data folder .* \(stand-ins started by this command\)/);
  }, 200_000);
});
