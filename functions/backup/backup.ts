/**
 * `npm run backup -- <file>`: the whole instance — every table item and every repository of every
 * storage — into one archive (format in `index.ts`), consistent while the service runs:
 *
 * 1. The table is read first, by a strongly consistent parallel Scan, into a spool file.
 * 2. Each repository is then copied under its write lease (`archive-repository.ts`); its container
 *    item is replaced by the version read under the lease. The leases are taken a batch at a time
 *    (`archiveBatch`), in order of kind and id; what a batch cannot take is copied alone afterwards,
 *    waiting for writes and moves. A container deleted meanwhile leaves the archive together with
 *    the items that belong to it (`containers.ts`).
 * 3. Storage moves that were open at the scan are read again once their containers were released,
 *    so the archive holds their final state.
 * 4. The items are written as JSON lines, then the manifest, last. The archive is written under a
 *    temporary name and renamed when complete, so a file with the final name is always whole.
 */
import { createReadStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { instanceConfig } from "../platform/config.js";
import { archiveBatch, archiveRepository, type ArchivedRepository } from "./archive-repository.js";
import { belongsToVanished, containerId, containerOf, isOpenMove, repositoryOf, withoutLease, type RepositoryRef } from "./containers.js";
import { BackupError } from "./errors.js";
import { encodeManifest, FORMAT, FORMAT_MARKER, FORMAT_VERSION, MANIFEST_PATH, tableFileName, type ManifestEntry, type RepositoryRecord } from "./manifest.js";
import { formatBytes, silentProgress, type ProgressSink } from "./progress.js";
import { decodeItem, describeTable, encodeItem, getRawItem, keyId, keyOf, scanTable, type RawItem } from "./table-io.js";
import { isInstallationKey } from "./restore-marker.js";
import { TarWriter, type WrittenEntry } from "./tar-writer.js";
import { mapConcurrently } from "../platform/concurrency.js";

export interface BackupOptions {
  file: string;
  progress?: ProgressSink;
  /** How long to wait for a repository held by a storage move (default FORGELINE_BACKUP_WAIT_MS or 10 min). */
  waitMs?: number;
  /** Items per table file (a file is also cut at 8 MiB). */
  itemsPerFile?: number;
  /** Containers whose leases are taken together, and how long a batch may hold them before copying no more (defaults below). */
  leaseBatch?: { size: number; holdMs: number };
  /** Runs before each repository is copied; a seam for tests that change the instance mid-backup. */
  beforeRepository?: (ref: RepositoryRef) => Promise<void> | void;
}

export interface BackupSummary {
  file: string;
  items: number;
  droppedItems: number;
  repositories: number;
  files: number;
  /** Content bytes (repository files and table lines), the figure throughput is measured on. */
  bytes: number;
  archiveBytes: number;
  seconds: number;
}

const REPOSITORY_CONCURRENCY = 8;
/** Containers whose leases are taken together (one transaction), and how long a batch may hold them. */
const LEASE_BATCH = 100;
const BATCH_HOLD_MS = 1000;

const keyString = (item: RawItem) => keyId(keyOf(item));

export async function backup(opts: BackupOptions): Promise<BackupSummary> {
  const started = Date.now();
  const progress = opts.progress ?? silentProgress;
  const waitMs = opts.waitMs ?? Number(process.env.FORGELINE_BACKUP_WAIT_MS ?? 600_000);
  if (await stat(opts.file).then(() => true, () => false)) throw new BackupError(`${opts.file} already exists; choose a new file name`);
  const partial = `${opts.file}.partial-${process.pid}`;
  const spool = `${opts.file}.items-${process.pid}.tmp`;
  const table = await describeTable();
  const tar = await TarWriter.create(partial, { firstComment: FORMAT_MARKER });
  try {
    // 1. Table snapshot.
    progress.phase("Reading table", table.itemCount);
    const repositories: RepositoryRef[] = [];
    const openMoves: RawItem[] = [];
    const spoolFile = await open(spool, "a", 0o600);
    let scanned = 0;
    try {
      await scanTable(async (scannedPage) => {
        const items = scannedPage.filter((item) => !isInstallationKey(keyOf(item)));
        for (const item of items) {
          const repo = repositoryOf(item);
          if (repo) repositories.push(repo);
          if (isOpenMove(item)) openMoves.push(item);
        }
        // One append per page: O_APPEND makes each write atomic, so segments never interleave lines.
        if (items.length) await spoolFile.write(items.map((i) => encodeItem(i) + "\n").join(""));
        progress.update((scanned += items.length));
      }, { segments: Math.min(16, Math.max(4, Math.ceil(table.sizeBytes / 2 ** 28))) });
    } finally {
      await spoolFile.close();
    }

    // 2. Repositories, each under its write lease.
    repositories.sort((a, b) => (a.kind === b.kind ? a.id - b.id : a.kind < b.kind ? -1 : 1));
    progress.phase("Copying repositories", repositories.length);
    const replaced = new Map<string, RawItem>();
    const vanished = new Set<string>();
    const records: RepositoryRecord[] = [];
    const entries: WrittenEntry[] = [];
    // Progress counts containers: a project with a wiki archives two repositories.
    let containersDone = 0;
    const archived = (ref: RepositoryRef, copied: ArchivedRepository | undefined) => {
      if (!copied) vanished.add(containerId(ref));
      else {
        replaced.set(keyString(copied.item), copied.item);
        records.push(...copied.records);
        for (const e of copied.entries) entries.push(e); // not push(...): a big repository has more files than a call has arguments
      }
      progress.update(++containersDone, `${formatBytes(tar.bytesWritten)} written`);
    };
    const hooked = new Set<RepositoryRef>();
    const beforeCopy = async (ref: RepositoryRef) => {
      if (hooked.has(ref)) return;
      hooked.add(ref);
      await opts.beforeRepository?.(ref);
    };
    // In order of kind and id, a batch of leases at a time (per-repository round trips dominate
    // small repositories). What a batch could not take is archived alone afterwards, waiting if
    // it must, so the archive keeps that order but for those.
    const alone: RepositoryRef[] = [];
    for (let queue = repositories; queue.length > 0; ) {
      const batch = queue.slice(0, opts.leaseBatch?.size ?? LEASE_BATCH);
      for (const ref of batch) await beforeCopy(ref);
      const outcome = await archiveBatch(tar, batch, { holdMs: opts.leaseBatch?.holdMs ?? BATCH_HOLD_MS });
      for (const { ref, copied } of outcome.done) archived(ref, copied);
      alone.push(...outcome.alone);
      queue = [...outcome.later, ...queue.slice(batch.length)];
    }
    // Those wait for writes and moves each on its own; a few are prepared at once (lease,
    // checksums: round trips), one appends at a time.
    let tail: Promise<unknown> = Promise.resolve();
    const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = tail.then(fn);
      tail = run.catch(() => undefined);
      return run;
    };
    await mapConcurrently(alone, REPOSITORY_CONCURRENCY, async (ref) => {
      await beforeCopy(ref);
      archived(ref, await archiveRepository(tar, ref, { waitMs, exclusive, onWait: (why) => progress.update(containersDone, why) }));
    });
    records.sort((a, b) => (a.kind === b.kind ? a.id - b.id : a.kind < b.kind ? -1 : 1));

    // 3. Storage moves open at the scan: their containers were released above, so they are final now.
    for (const move of openMoves) {
      const fresh = await getRawItem(keyOf(move));
      if (fresh) replaced.set(keyString(fresh), fresh);
    }

    // 4. Items, then the manifest.
    progress.phase("Writing table", scanned);
    const tableFiles: string[] = [];
    let items = 0;
    let dropped = 0;
    let lines: string[] = [];
    let lineBytes = 0;
    const cut = async () => {
      if (!lines.length) return;
      const name = tableFileName(tableFiles.length);
      entries.push(await tar.file(name, Buffer.from(lines.join(""), "utf8")));
      tableFiles.push(name);
      [lines, lineBytes] = [[], 0];
    };
    for await (const line of createInterface({ input: createReadStream(spool), crlfDelay: Infinity })) {
      if (!line) continue;
      const scannedItem = decodeItem(line);
      // No lease survives into the archive (a wiki's first page may have held one during the Scan).
      const item = withoutLease(replaced.get(keyString(scannedItem)) ?? scannedItem);
      const gone = containerOf(item) && vanished.has(containerId(containerOf(item)!));
      if (gone || belongsToVanished(item, vanished)) {
        dropped++;
        continue;
      }
      const encoded = encodeItem(item) + "\n";
      lines.push(encoded);
      lineBytes += Buffer.byteLength(encoded);
      items++;
      if (lines.length >= (opts.itemsPerFile ?? 5000) || lineBytes >= 8 << 20) await cut();
      progress.add(1);
    }
    await cut();

    const files = entries.filter((e) => e.type === "file");
    const bytes = files.reduce((n, e) => n + e.size, 0);
    const archiveSha = tar.sealPrefix();
    const storages = Object.fromEntries(
      Object.entries(instanceConfig().storages).map(([name, s]) => [name, { kind: s.kind, replicas: s.kind === "local" ? 1 : s.replicas.length }]),
    );
    const manifest = encodeManifest({
      format: FORMAT,
      format_version: FORMAT_VERSION,
      created_at: new Date().toISOString(),
      source: { table: table.name, storages },
      counts: { items, repositories: records.length, files: files.length, bytes, dropped_items: dropped },
      table_files: tableFiles,
      repositories: records,
      entries: entries.map((e): ManifestEntry => ({ path: e.path, type: e.type, size: e.size, sha256: e.sha256 })),
      archive_sha256: archiveSha,
    });
    await tar.file(MANIFEST_PATH, manifest);
    await tar.close();
    progress.end();
    await rename(partial, opts.file);
    return {
      file: opts.file,
      items,
      droppedItems: dropped,
      repositories: records.length,
      files: files.length,
      bytes,
      archiveBytes: tar.bytesWritten,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (err) {
    progress.end();
    await tar.abort();
    await rm(partial, { force: true });
    throw err;
  } finally {
    await rm(spool, { force: true });
  }
}
