/**
 * Restore is all or nothing, on private persistent runtimes:
 * 1. hostile archives that no byte-level check can tell from real ones (`writeArchive` recomputes
 *    their manifest) are refused before anything is written: a repository's file after the table
 *    files, two repositories on one path, a ref moved under a stale checksum, items and repositories
 *    that disagree, an item twice, a mapping that puts two repositories on one path;
 * 2. a failure while staging or while making the archive live is undone: the target is as it was;
 * 3. a restore killed (SIGKILL) while staging leaves the target as it was (`npm start` sweeps the
 *    staging area); killed while making the archive live, `npm start` refuses the folder and running
 *    the same restore again finishes it — a complete instance either way.
 * "As it was" is the same table, no folder left on the storages, and the fresh instance's
 * bootstrap token still working.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backup } from "../../functions/backup/backup.js";
import { restore } from "../../functions/backup/restore.js";
import { verifyArchive } from "../../functions/backup/verify.js";
import { batchWrite } from "../../functions/backup/table-io.js";
import type { Manifest } from "../../functions/backup/manifest.js";
import { replicaPaths } from "../../functions/hosting/domain/git/index.js";
import { injectFaults } from "../../functions/platform/fault-injection.js";
import { startRuntime, defaultLocalConfig } from "../../local/runtime.js";
import { call, cli, ok, privateRuntime, spawnOnFolder, tableLines, type PrivateRuntime } from "./support.js";
import { editItems, readArchive, storageLeftovers, writeArchive, type ArchivedEntry } from "./damage.js";

const SOURCE_TOKEN = "glpat-atomic-source-admin-0001";
const FRESH_TOKEN = "glpat-atomic-fresh-admin-00001";
const work = mkdtempSync(join(tmpdir(), "forgeline-atomic-"));
const archive = join(work, "instance.tar");
/** More items than restore puts between two fault points, so a kill can land in the middle of the table. */
const FILLER_ITEMS = 700;

let source: PrivateRuntime | undefined;
let target: PrivateRuntime | undefined;
let sourceLines: string[];
let manifest: Manifest;
let entries: ArchivedEntry[];
let freshLines: string[];
const refs = new Map<string, string>();
/** The commit before `main` of the project on the cluster storage. */
let clusterParent: string;
const projects: Record<"default" | "secondary" | "cluster", number> = { default: 0, secondary: 0, cluster: 0 };

const refsOf = (gitdir: string) => execFileSync("git", ["--git-dir", gitdir, "for-each-ref", "--format=%(objectname) %(refname)"], { encoding: "utf8" });
const fsck = (gitdir: string) => execFileSync("git", ["--git-dir", gitdir, "fsck", "--strict", "--no-progress"], { stdio: "pipe" });
const record = (kind: string, id: number) => manifest.repositories.find((r) => r.kind === kind && r.id === id)!;
const prefixOf = (kind: string, id: number) => `repositories/${kind}/${id}`;
/** Staging areas and other temporary folders on the storages (an instance's repositories aside). */
const temporaryFolders = (dataDir: string) => storageLeftovers(dataDir).filter((path) => !path.endsWith(".git"));

async function populateSource(admin: PrivateRuntime): Promise<void> {
  for (const storage of Object.keys(projects) as Array<keyof typeof projects>) {
    const p = await ok(admin, "POST", "/api/v4/projects", { name: `on ${storage}`, initialize_with_readme: true, repository_storage: storage });
    await ok(admin, "POST", `/api/v4/projects/${p.id}/repository/commits`, { branch: "main", commit_message: "Second", actions: [{ action: "create", file_path: "a.txt", content: "a\n" }] });
    projects[storage] = p.id;
  }
  await ok(admin, "POST", `/api/v4/projects/${projects.default}/wikis`, { title: "Home", content: "Project wiki" });
  const group = await ok(admin, "POST", "/api/v4/groups", { name: "Team", path: "team" });
  await ok(admin, "POST", `/api/v4/groups/${group.id}/wikis`, { title: "Home", content: "Group wiki" });
  await ok(admin, "POST", "/api/v4/snippets", { title: "S", visibility: "public", files: [{ file_path: "s.py", content: "print(1)\n" }] });
  // Items of no context (restore copies items as they are): a table that spans several write chunks.
  await batchWrite(Array.from({ length: FILLER_ITEMS }, (_, n) => ({ put: { pk: { S: `FILLER#${n}` }, sk: { S: "ITEM" }, n: { N: String(n) } } })));
}

/**
 * The target as it was: the same table, nothing on its storages, its own bootstrap token working.
 * Returns the table as it is after that use of the token (which records when it was last used).
 */
async function expectUnchanged(runtime: PrivateRuntime, lines: string[], what: string): Promise<string[]> {
  expect(await tableLines(), what).toEqual(lines);
  expect(storageLeftovers(runtime.dataDir), what).toEqual([]);
  expect((await call(runtime, "GET", "/api/v4/user")).status, what).toBe(200);
  return tableLines();
}

/** The archive's instance, whole: every item, every repository on every replica with its refs, the archive's token. */
async function expectComplete(runtime: PrivateRuntime): Promise<void> {
  expect(await tableLines()).toEqual(sourceLines);
  for (const r of manifest.repositories) {
    for (const gitdir of replicaPaths(r.storage, r.relative_path)) {
      expect(refsOf(gitdir), `${r.kind} ${r.id}`).toBe(refs.get(`${r.kind}/${r.id}`));
      fsck(gitdir);
    }
  }
  expect(temporaryFolders(runtime.dataDir)).toEqual([]);
  const admin = { baseUrl: runtime.baseUrl, token: SOURCE_TOKEN };
  for (const id of Object.values(projects)) expect((await ok(admin, "GET", `/api/v4/projects/${id}/repository/commits`))[0].title).toBe("Second");
  expect((await call(runtime, "GET", "/api/v4/user")).status).toBe(401); // the fresh instance's token is gone
}

async function refused(file: string, opts: { mapping?: Record<string, string>; force?: boolean } = {}): Promise<Error> {
  const err = await restore({ file, ...opts }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

/** The archive with the project's `main` moved back to the commit before (read from the source in `beforeAll`). */
function movedRef(kind: string, id: number, parent: string): ArchivedEntry[] {
  const loose = `${prefixOf(kind, id)}/refs/heads/main`;
  const packed = `${prefixOf(kind, id)}/packed-refs`;
  if (entries.some((e) => e.path === loose)) return entries.map((e) => (e.path === loose ? { ...e, data: Buffer.from(`${parent}\n`) } : e));
  return entries.map((e) => (e.path === packed ? { ...e, data: Buffer.from(e.data.toString("utf8").replace(/^[0-9a-f]{40}(?= refs\/heads\/main$)/m, parent)) } : e));
}

beforeAll(async () => {
  source = await privateRuntime(SOURCE_TOKEN);
  await populateSource(source);
  sourceLines = await tableLines();
  await backup({ file: archive });
  manifest = await verifyArchive(archive);
  for (const r of manifest.repositories) refs.set(`${r.kind}/${r.id}`, refsOf(replicaPaths(r.storage, r.relative_path)[0]!));
  const onCluster = record("project", projects.cluster);
  clusterParent = execFileSync("git", ["--git-dir", replicaPaths(onCluster.storage, onCluster.relative_path)[0]!, "rev-parse", "main~1"], { encoding: "utf8" }).trim();
  entries = (await readArchive(archive)).entries;
  await source.stop();
  source = undefined;
  target = await privateRuntime(FRESH_TOKEN);
  freshLines = await tableLines();
}, 300_000);

afterAll(async () => {
  injectFaults(undefined);
  await source?.stop();
  await target?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe.sequential("hostile archives with a self-consistent manifest", () => {
  it("refuses a repository's file placed after the table files, in one line, and writes nothing", async () => {
    const moved = `${prefixOf("project", projects.secondary)}/HEAD`;
    const file = await writeArchive(join(work, "after-table.tar"), [...entries.filter((e) => e.path !== moved), entries.find((e) => e.path === moved)!], manifest);
    const res = await cli("restore", [file], target!.dataDir);
    expect(res.code).toBe(1);
    const errors = res.stderr.split("\n").filter((line) => line.startsWith("Error:"));
    expect(errors).toEqual([expect.stringMatching(new RegExp(`^Error: The backup archive is damaged: the entries of ${prefixOf("project", projects.secondary)} are not together .*Nothing was restored\\.$`))]);
    freshLines = await expectUnchanged(target!, freshLines, "a file after the table files");
  }, 120_000);

  it("refuses two repositories with the same relative_path", async () => {
    const project = record("project", projects.default);
    const snippet = manifest.repositories.find((r) => r.kind === "snippet")!;
    const shared = editItems(entries, (item) => (item.pk.S === `SNIPPET#${snippet.id}` && item.sk.S === "SNIPPET" ? { ...item, storage: { S: project.storage }, relativePath: { S: project.relative_path } } : item));
    const file = await writeArchive(join(work, "same-path.tar"), shared, manifest, (m) => {
      Object.assign(m.repositories.find((r) => r.kind === "snippet")!, { storage: project.storage, relative_path: project.relative_path });
    });
    const err = await refused(file);
    expect(err.message).toMatch(new RegExp(`^The backup archive is damaged: .* would both be restored to ${project.storage}:${project.relative_path.replace(/[.]/g, "\\.")}\\. Nothing was restored\\.$`));
    freshLines = await expectUnchanged(target!, freshLines, "two repositories on one path");
  }, 120_000);

  it("refuses a ref moved with the repository checksum left stale", async () => {
    const file = await writeArchive(join(work, "stale-checksum.tar"), movedRef("project", projects.cluster, clusterParent), manifest);
    const err = await refused(file);
    expect(err.message).toMatch(new RegExp(`^The backup archive is damaged: project ${projects.cluster}'s refs in the archive have checksum [0-9a-f]{40}, the manifest recorded ${record("project", projects.cluster).checksum}`));
    freshLines = await expectUnchanged(target!, freshLines, "a stale checksum");
  }, 120_000);

  it("refuses an item that points somewhere else than its archived repository, and an item held twice", async () => {
    const elsewhere = editItems(entries, (item) => (item.pk.S === `PROJECT#${projects.cluster}` && item.sk.S === "PROJECT" ? { ...item, relativePath: { S: "@hashed/00/00/elsewhere.git" } } : item));
    const err = await refused(await writeArchive(join(work, "elsewhere.tar"), elsewhere, manifest));
    expect(err.message).toMatch(new RegExp(`the table's project ${projects.cluster} has its repository at cluster:@hashed/00/00/elsewhere\\.git, the manifest at cluster:`));
    const twice = editItems(entries, (item) => (item.pk.S === "FILLER#7" ? [item, item] : item));
    expect((await refused(await writeArchive(join(work, "twice.tar"), twice, manifest))).message).toMatch(/the table files hold the item FILLER#7\/ITEM twice/);
    freshLines = await expectUnchanged(target!, freshLines, "items that disagree");
  }, 120_000);

  it("refuses a storage mapping that puts two repositories on one path", async () => {
    const onDefault = record("project", projects.default);
    const clash = editItems(entries, (item) => (item.pk.S === `PROJECT#${projects.secondary}` && item.sk.S === "PROJECT" ? { ...item, relativePath: { S: onDefault.relative_path } } : item));
    const file = await writeArchive(join(work, "clash.tar"), clash, manifest, (m) => {
      m.repositories.find((r) => r.kind === "project" && r.id === projects.secondary)!.relative_path = onDefault.relative_path;
    });
    await verifyArchive(file); // on their own storages the two paths are distinct
    const err = await refused(file, { mapping: { secondary: "default" } });
    expect(err.message).toMatch(/^with the storage mapping given, project \d+ and project \d+ would both be restored to default:.*Nothing was restored$/);
    freshLines = await expectUnchanged(target!, freshLines, "a mapping onto one path");
  }, 120_000);
});

describe.sequential("failures are undone", () => {
  const failAt = (point: string, after = 1) => {
    let seen = 0;
    injectFaults((at) => {
      if (at === point && ++seen === after) throw new Error(`injected failure at ${point}`);
    });
  };

  it("fails the restore when a repository cannot be written, with nothing written", async () => {
    failAt("restoreRepository", 3);
    try {
      expect((await refused(archive)).message).toBe("injected failure at restoreRepository");
    } finally {
      injectFaults(undefined);
    }
    freshLines = await expectUnchanged(target!, freshLines, "a repository not written");
  }, 120_000);

  it("undoes a failure in the middle of the table or of the renames", async () => {
    for (const point of ["restoreTable", "restoreRename"]) {
      failAt(point, 2);
      try {
        expect((await refused(archive)).message, point).toMatch(new RegExp(`^The restore failed while making the archive live \\(injected failure at ${point}\\); that was undone, and the instance is as it was before\\. Nothing was restored$`));
      } finally {
        injectFaults(undefined);
      }
      freshLines = await expectUnchanged(target!, freshLines, point);
    }
  }, 240_000);

  it("puts a forced restore's target back, repositories included, and then replaces it, reporting what it restored", async () => {
    const own = await ok(target!, "POST", "/api/v4/projects", { name: "target's own", initialize_with_readme: true });
    const ownRepository = replicaPaths(own.repository_storage, (await tableLines()).map((l) => JSON.parse(l)).find((i) => i.pk.S === `PROJECT#${own.id}` && i.sk.S === "PROJECT").relativePath.S)[0]!;
    const ownRefs = refsOf(ownRepository);
    const lines = await tableLines();
    failAt("restoreRename", manifest.repositories.length);
    try {
      expect((await refused(archive, { force: true })).message).toMatch(/that was undone, and the instance is as it was before/);
    } finally {
      injectFaults(undefined);
    }
    expect(await tableLines()).toEqual(lines);
    expect(refsOf(ownRepository)).toBe(ownRefs);
    fsck(ownRepository);
    expect(temporaryFolders(target!.dataDir)).toEqual([]);

    const res = await cli("restore", [archive, "--force"], target!.dataDir);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^Restored ${manifest.counts.items} table items and ${manifest.repositories.length} repositories `));
    await expectComplete(target!);
    await target!.stop();
    target = undefined;
  }, 180_000);
});

describe.sequential("a restore killed with SIGKILL", () => {
  /** Runs the restore command on `dataDir` until it reaches `point` and freezes there, then kills it. */
  async function killAt(point: string, dataDir: string): Promise<void> {
    const child = spawnOnFolder("test/backup/restore-crash.ts", [archive], dataDir, { CRASH_AT: point });
    let output = "";
    await new Promise<void>((frozen, fail) => {
      const watch = (d: Buffer) => {
        output += d;
        if (output.includes(`FROZEN ${point}`)) frozen();
      };
      child.stdout.on("data", watch);
      child.stderr.on("data", (d: Buffer) => (output += d));
      child.once("exit", (code) => fail(new Error(`the restore ended (${code}) before ${point}:\n${output}`)));
    });
    const gone = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await gone;
  }

  /** A fresh instance, its restore killed at `point`; the runtime stopped as a crash of the machine would leave it. */
  async function crashedRestore(point: string): Promise<{ dataDir: string; lines: string[] }> {
    const runtime = await privateRuntime(FRESH_TOKEN);
    const lines = await tableLines();
    await killAt(point, runtime.dataDir);
    if (point.startsWith("restoreStaged")) {
      expect(storageLeftovers(runtime.dataDir).length).toBeGreaterThan(0); // the staging area it left
      expect(await tableLines()).toEqual(lines);
    }
    await runtime.stop({ keepData: true });
    return { dataDir: runtime.dataDir, lines };
  }

  async function restoreAgainAndCheck(dataDir: string): Promise<void> {
    const res = await cli("restore", [archive], dataDir);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^Restored ${manifest.counts.items} table items and ${manifest.repositories.length} repositories `));
    const restored = await privateRuntime(FRESH_TOKEN, dataDir);
    try {
      await expectComplete(restored);
    } finally {
      await restored.stop();
    }
  }

  it("while staging: the target is as it was, npm start sweeps the staging area, and a second restore succeeds", async () => {
    const { dataDir, lines } = await crashedRestore("restoreStaged after");
    const started = await privateRuntime(FRESH_TOKEN, dataDir);
    try {
      expect(storageLeftovers(dataDir)).toEqual([]);
      expect(await tableLines()).toEqual(lines);
      expect((await call(started, "GET", "/api/v4/user")).status).toBe(200);
      expect((await call(started, "GET", "/api/v4/projects")).body).toEqual([]);
    } finally {
      await started.stop({ keepData: true });
    }
    await restoreAgainAndCheck(dataDir);
  }, 600_000);

  for (const point of ["restoreTable copied", "restoreRename copied"]) {
    it(`while making it live (${point.split(" ")[0]}): npm start refuses the folder, and the same restore finishes it`, async () => {
      const { dataDir } = await crashedRestore(point);
      const refusedStart = await startRuntime({ dataDir, persistent: true, config: defaultLocalConfig(dataDir), bootstrapToken: FRESH_TOKEN }).then(
        async (rt) => {
          await rt.stop();
          return undefined;
        },
        (err: unknown) => err as Error,
      );
      expect(refusedStart?.message).toMatch(/holds an incomplete instance: a restore of .*instance\.tar \(a backup taken .*\), begun .*, was interrupted\. Run it again to finish it: npm run restore -- .*instance\.tar$/);
      if (point.startsWith("restoreTable")) {
        // Another archive (sound, but not the one being made live) may not finish it without --force.
        const other = await writeArchive(join(work, "other.tar"), entries, manifest, (m) => void (m.created_at = "2020-01-01T00:00:00.000Z"));
        const res = await cli("restore", [other], dataDir);
        expect(res.code).toBe(1);
        expect(res.stderr).toMatch(/Error: The target instance is incomplete: a restore of .*instance\.tar .* was interrupted\. Run that restore again to finish it .*or run this one with --force.*Nothing was restored\./);
      }
      await restoreAgainAndCheck(dataDir);
    }, 600_000);
  }
});
