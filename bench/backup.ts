/**
 * Backup and restore throughput (MB/s of data: repository files and table items) against `tar` of
 * the same data folder's storages in the same run: `tar -cf` for backup, `tar -xf` of that tarball
 * for restore. Runs in the bench process, which is attached to the bench runtime, and restores with
 * `force` into that same instance (it ends with the same data it started with).
 *
 * Twice: with ~16 MB of small repositories spread over every storage (many files, per-repository
 * overhead dominates), then with 1 GB more in a few large repositories (throughput dominates). The
 * large ones are made quickly with the real `git fast-import` (uncompressed, so the bytes on disk
 * are the bytes generated) and deleted at the end.
 *
 * What the baselines do not do and we do: backup takes a write lease and two refs checksums per
 * repository and scans the table; restore reads the archive twice (verification first), writes
 * every cluster replica and checks every replica's checksum, and writes the table items. For the
 * small set a third row times the backup's DynamoDB requests alone (`databaseFloor`): there they,
 * not the files, bound the backup.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backup } from "../functions/backup/backup.js";
import { repositoryOf, type RepositoryRef } from "../functions/backup/containers.js";
import { restore } from "../functions/backup/restore.js";
import { describeTable, getRawItems, scanTable } from "../functions/backup/table-io.js";
import { containerKey } from "../functions/hosting/domain/keys.js";
import { MAX_BATCH, releaseWriteLeases, takeWriteLeases } from "../functions/hosting/domain/write-lease-batch.js";
import { hashedRelativePath, primaryPath } from "../functions/hosting/domain/git/index.js";

interface Ctx {
  baseUrl: string;
  adminToken: string;
  dataDir: string;
}

const PROJECTS = 24;
const FILES_PER_PROJECT = 4;
const FILE_BYTES = 96 * 1024;
const MB = 1e6;
/** The large set: this many projects on `default`, each with blobs of BLOB_BYTES adding up to LARGE_BYTES. */
const LARGE_PROJECTS = 4;
const LARGE_BYTES = 1 << 30;
const BLOB_BYTES = 128 << 20;

function bytesBelow(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) total += e.isDirectory() ? bytesBelow(join(dir, e.name)) : e.isFile() ? statSync(join(dir, e.name)).size : 0;
  return total;
}

async function populate(ctx: Ctx): Promise<void> {
  const headers = { "Private-Token": ctx.adminToken, "Content-Type": "application/json" };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${ctx.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: number };
  };
  // Spread over every storage, cluster included, as a real instance would be.
  await fetch(`${ctx.baseUrl}/api/v4/application/settings`, { method: "PUT", headers, body: JSON.stringify({ repository_storages_weighted: { default: 50, secondary: 25, cluster: 25 } }) });
  let next = 0;
  const worker = async () => {
    while (next < PROJECTS) {
      const i = next++;
      const p = await post("/api/v4/projects", { name: `backup-bench-${i}`, initialize_with_readme: true });
      // Incompressible content, so the sizes are real bytes on disk, not zlib's best case.
      const actions = Array.from({ length: FILES_PER_PROJECT }, (_, f) => ({ action: "create", file_path: `data/${f}.bin`, content: randomBytes(FILE_BYTES).toString("base64"), encoding: "base64" }));
      await post(`/api/v4/projects/${p.id}/repository/commits`, { branch: "main", commit_message: "data", actions });
    }
  };
  await Promise.all([worker(), worker(), worker()]);
}

function timed(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return (performance.now() - t0) / 1000;
}

function api(ctx: Ctx) {
  const headers = { "Private-Token": ctx.adminToken, "Content-Type": "application/json" };
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${ctx.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : ((await res.json()) as { id: number });
  };
}

/**
 * Adds LARGE_BYTES in a few projects: each gets one commit of BLOB_BYTES-sized blobs, streamed into
 * `git fast-import` in the repository itself. Each blob is a unique line followed by one random
 * 16 MiB block repeated: stored uncompressed, so every byte is on disk and in every copy.
 */
async function populateLarge(ctx: Ctx): Promise<number[]> {
  const call = api(ctx);
  const block = randomBytes(16 << 20);
  const blobsPerProject = Math.ceil(LARGE_BYTES / LARGE_PROJECTS / BLOB_BYTES);
  const ids: number[] = [];
  for (let p = 0; p < LARGE_PROJECTS; p++) {
    const { id } = (await call("POST", "/api/v4/projects", { name: `backup-bench-large-${p}`, initialize_with_readme: true, repository_storage: "default" }))!;
    ids.push(id);
    const git = spawn("git", ["-c", "core.compression=0", "-c", "pack.compression=0", "--git-dir", primaryPath("default", hashedRelativePath("project", id)), "fast-import", "--quiet"], { stdio: ["pipe", "inherit", "inherit"] });
    const exited = new Promise<number | null>((resolve) => git.on("close", resolve));
    const write = (data: Buffer | string) => (git.stdin.write(data) ? Promise.resolve() : new Promise<void>((r) => git.stdin.once("drain", () => r())));
    for (let b = 0; b < blobsPerProject; b++) {
      await write(`blob\nmark :${b + 1}\ndata ${BLOB_BYTES}\n`);
      const head = Buffer.from(`project ${id} blob ${b}\n`);
      await write(head);
      for (let left = BLOB_BYTES - head.length; left > 0; left -= block.length) await write(left >= block.length ? block : block.subarray(0, left));
      await write("\n");
    }
    const files = Array.from({ length: blobsPerProject }, (_, b) => `M 100644 :${b + 1} large/${b}.bin\n`).join("");
    await write(`commit refs/heads/main\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 5\nlarge\nfrom refs/heads/main^0\n${files}\n`);
    git.stdin.end();
    if ((await exited) !== 0) throw new Error("git fast-import failed");
  }
  return ids;
}

/**
 * The backup's DynamoDB requests alone, through its own code, with no file touched: the table's
 * description and parallel Scan, then per batch of 100 containers one transaction taking the write
 * leases, one BatchGetItem of the containers, one transaction giving the leases back. On this
 * machine DynamoDB Local serialises those writes on one thread, so this is a floor under the
 * backup's time that no copying can go below. Returns seconds.
 */
async function databaseFloor(): Promise<number> {
  const t0 = performance.now();
  await describeTable();
  const refs: RepositoryRef[] = [];
  await scanTable((items) => {
    for (const item of items) {
      const ref = repositoryOf(item);
      if (ref) refs.push(ref);
    }
  });
  for (let i = 0; i < refs.length; i += MAX_BATCH) {
    const { held } = await takeWriteLeases(refs.slice(i, i + MAX_BATCH));
    await getRawItems(held.map(({ target }) => containerKey(target.kind, target.id)));
    await releaseWriteLeases(held);
  }
  return (performance.now() - t0) / 1000;
}

/** One backup and one restore of the instance as it is, each against `tar` of the same storages. */
async function measure(ctx: Ctx, work: string, label: string, withFloor: boolean) {
  const storages = join(ctx.dataDir, "storages");
  const storageBytes = bytesBelow(storages);
  const tarball = join(work, "storages.tar");
  const tarCreate = timed(() => execFileSync("tar", ["-cf", tarball, "-C", ctx.dataDir, "storages"]));
  const unpacked = join(work, "unpacked");
  mkdirSync(unpacked);
  const tarExtract = timed(() => execFileSync("tar", ["-xf", tarball, "-C", unpacked]));
  rmSync(tarball);
  rmSync(unpacked, { recursive: true, force: true });

  const archive = join(work, "instance.tar");
  const b = await backup({ file: archive });
  const r = await restore({ file: archive, force: true });
  rmSync(archive);
  // Only the small set needs it: with large repositories the copy dominates.
  const floor = withFloor ? await databaseFloor() : undefined;
  const floorRow =
    floor === undefined
      ? []
      : [
          {
            name: "The same backup's DynamoDB requests alone (Scan; per 100 containers: take leases, read them, give them back)",
            baseline: "tar -cf above",
            value: b.bytes / MB / floor,
            baselineValue: storageBytes / MB / tarCreate,
            unit: "MB/s",
            note:
              `${(floor * 1000).toFixed(0)} ms against the backup's ${(b.seconds * 1000).toFixed(0)} ms and tar's ${(tarCreate * 1000).toFixed(0)} ms; ` +
              "the backup's bytes over this time: a ceiling on the backup row, through its own code, no file read",
          },
        ];
  const note = (s: { bytes: number }) => `${(s.bytes / MB).toFixed(1)} MB: ${b.repositories} repositories, ${b.items} items; tar: ${(storageBytes / MB).toFixed(1)} MB incl. replicas`;
  return [
    {
      name: `Backup, running instance → archive (npm run backup)${label}`,
      baseline: "tar -cf of the data folder's storages",
      value: b.bytes / MB / b.seconds,
      baselineValue: storageBytes / MB / tarCreate,
      unit: "MB/s",
      note: note(b),
    },
    ...floorRow,
    {
      name: `Restore, verify + every replica + items (npm run restore)${label}`,
      baseline: "tar -xf of that tarball",
      value: r.bytes / MB / r.seconds,
      baselineValue: storageBytes / MB / tarExtract,
      unit: "MB/s",
      note: note(r),
    },
  ];
}

export async function run(ctx: Ctx) {
  await populate(ctx);
  const work = mkdtempSync(join(tmpdir(), "forgeline-bench-backup-"));
  let large: number[] = [];
  try {
    const small = await measure(ctx, work, "", true);
    large = await populateLarge(ctx);
    return [...small, ...(await measure(ctx, work, ", with 1 GB in large repositories", false))];
  } finally {
    rmSync(work, { recursive: true, force: true });
    const call = api(ctx);
    for (const id of large) await call("DELETE", `/api/v4/projects/${id}`).catch(() => undefined);
  }
}
