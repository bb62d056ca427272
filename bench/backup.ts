/**
 * Backup and restore throughput (MB/s of data: repository files and table items) against `tar` of
 * the same data folder's storages in the same run: `tar -cf` for backup, `tar -xf` of that tarball
 * for restore. Runs in the bench process, which is attached to the bench runtime, and restores with
 * `force` into that same instance (the last bench; it ends with the same data it started with).
 *
 * What the baselines do not do and we do: backup takes a write lease and two refs checksums per
 * repository and scans the table; restore reads the archive twice (verification first), writes
 * every cluster replica and checks every replica's checksum, and writes the table items.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backup } from "../functions/backup/backup.js";
import { restore } from "../functions/backup/restore.js";

interface Ctx {
  baseUrl: string;
  adminToken: string;
  dataDir: string;
}

const PROJECTS = 24;
const FILES_PER_PROJECT = 4;
const FILE_BYTES = 96 * 1024;
const MB = 1e6;

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

export async function run(ctx: Ctx) {
  await populate(ctx);
  const work = mkdtempSync(join(tmpdir(), "forgeline-bench-backup-"));
  try {
    const storages = join(ctx.dataDir, "storages");
    const storageBytes = bytesBelow(storages);
    const tarball = join(work, "storages.tar");
    const tarCreate = timed(() => execFileSync("tar", ["-cf", tarball, "-C", ctx.dataDir, "storages"]));
    const unpacked = join(work, "unpacked");
    mkdirSync(unpacked);
    const tarExtract = timed(() => execFileSync("tar", ["-xf", tarball, "-C", unpacked]));

    const archive = join(work, "instance.tar");
    const b = await backup({ file: archive });
    const r = await restore({ file: archive, force: true });
    const note = (s: { bytes: number }) => `${(s.bytes / MB).toFixed(1)} MB: ${b.repositories} repositories, ${b.items} items; tar: ${(storageBytes / MB).toFixed(1)} MB incl. replicas`;
    return [
      {
        name: "Backup, running instance → archive (npm run backup)",
        baseline: "tar -cf of the data folder's storages",
        value: b.bytes / MB / b.seconds,
        baselineValue: storageBytes / MB / tarCreate,
        unit: "MB/s",
        note: note(b),
      },
      {
        name: "Restore, verify + every replica + items (npm run restore)",
        baseline: "tar -xf of that tarball",
        value: r.bytes / MB / r.seconds,
        baselineValue: storageBytes / MB / tarExtract,
        unit: "MB/s",
        note: note(r),
      },
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
