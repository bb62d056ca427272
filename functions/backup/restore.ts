/**
 * `npm run restore -- <file> [old=new …] [--force]`: an archive into an empty instance.
 *
 * 1. The whole archive is verified (`verify.ts`); if anything is off, nothing is written.
 * 2. The mapping is checked against this instance's storages, and the target must be empty
 *    (`emptiness.ts`) unless forced; forced, the target's repositories are deleted first.
 * 3. The archive is read again: repositories first (each into every replica, checksum-verified;
 *    files are written in the background, bounded in bytes held, while the archive is read on),
 *    then — only once every repository is in place — the target's items are deleted and the
 *    archive's items written. Until that last step the instance looks as it did before.
 *    The second pass re-checks every entry's sha256, so an archive changed between the two passes
 *    is caught as well.
 */
import { createHash } from "node:crypto";
import { removeRepository, replicaPaths } from "../hosting/domain/git/index.js";
import { inspectTarget } from "./emptiness.js";
import { ArchiveError, NotEmptyError } from "./errors.js";
import { checkMapping, mapStorage, rewriteItem, type StorageMapping } from "./mapping.js";
import { MANIFEST_PATH, repositoryPrefix, type Manifest, type RepositoryRecord } from "./manifest.js";
import { silentProgress, type ProgressSink } from "./progress.js";
import { RepositoryRestore } from "./restore-repository.js";
import { batchWrite, decodeItem, describeTable } from "./table-io.js";
import { readTar } from "./tar-reader.js";
import { verifyArchive } from "./verify.js";
import { WriteQueue } from "./write-queue.js";
import { mapConcurrently } from "../platform/concurrency.js";

/** Background file writes: at most this many at once, holding at most this much content. */
const WRITE_OPS = 64;
const WRITE_BYTES = 64 << 20;
const COMMIT_CONCURRENCY = 4;
const REMOVE_CONCURRENCY = 8;

export interface RestoreOptions {
  file: string;
  mapping?: StorageMapping;
  force?: boolean;
  progress?: ProgressSink;
}

export interface RestoreSummary {
  items: number;
  repositories: number;
  /** Content bytes restored (repository files and table lines). */
  bytes: number;
  replacedItems: number;
  seconds: number;
  manifest: Manifest;
}

export async function restore(opts: RestoreOptions): Promise<RestoreSummary> {
  const started = Date.now();
  const progress = opts.progress ?? silentProgress;
  const mapping = opts.mapping ?? {};
  const manifest = await verifyArchive(opts.file, progress);

  checkMapping(mapping, Object.keys(manifest.source.storages), manifest.repositories.map((r) => r.storage));
  for (const r of manifest.repositories) {
    try {
      replicaPaths(mapStorage(mapping, r.storage), r.relative_path);
    } catch {
      throw new ArchiveError(`${r.kind} ${r.id} has an unusable repository path ${JSON.stringify(r.relative_path)}`);
    }
  }
  await describeTable();
  const target = await inspectTarget();
  if (target.foundCount > 0 && !opts.force) throw new NotEmptyError(target.found);
  if (target.foundCount > 0) {
    progress.phase("Deleting the target's repositories", target.repositories.length);
    await mapConcurrently(target.repositories, REMOVE_CONCURRENCY, async (r) => {
      await removeRepository(r.storage, r.relativePath).catch(() => undefined); // a storage the config no longer has
      progress.add(1);
    });
  }

  const byPrefix = new Map(manifest.repositories.map((r) => [repositoryPrefix(r), r] as const));
  const expected = new Map(manifest.entries.map((e) => [e.path, e.sha256] as const));
  progress.phase("Restoring repositories", manifest.counts.bytes, "bytes");
  const queue = new WriteQueue(WRITE_OPS, WRITE_BYTES);
  let current: RepositoryRestore | undefined;
  // Repositories whose files are all read: their writes finish and they are committed (renamed into
  // place, checksummed) in the background, a few at a time, while the next ones are read.
  const unfinished = new Set<RepositoryRestore>();
  const committing = new Set<Promise<void>>();
  const finish = async (repo: RepositoryRestore) => {
    const commit = repo.commit().then(() => void unfinished.delete(repo));
    commit.catch(() => undefined); // raced below and awaited before the table is written
    committing.add(commit);
    void commit.finally(() => committing.delete(commit)).catch(() => undefined);
    while (committing.size >= COMMIT_CONCURRENCY) await Promise.race(committing);
  };
  let itemsWritten = 0;
  let targetCleared = false;
  const clearTarget = async () => {
    if (targetCleared) return;
    targetCleared = true;
    await batchWrite(target.keys.map((k) => ({ delete: k })));
    progress.phase("Writing table items", manifest.counts.items);
  };
  try {
    for await (const entry of readTar(opts.file)) {
      if (entry.path === MANIFEST_PATH) continue;
      const hash = createHash("sha256");
      const hashed = async function* (countBytes: boolean) {
        for await (const c of entry.chunks()) {
          hash.update(c);
          if (countBytes) progress.add(c.length);
          yield c;
        }
      };
      const changed = () => entry.type === "file" && hash.digest("hex") !== expected.get(entry.path);
      if (entry.path.startsWith("repositories/")) {
        const parts = entry.path.split("/");
        const prefix = parts.slice(0, 3).join("/");
        const record = byPrefix.get(prefix)!;
        if (current?.record !== record) {
          if (current) await finish(current);
          current = await startRepository(record, mapping, queue);
          unfinished.add(current);
        }
        const inner = parts.slice(3).join("/");
        if (entry.type === "dir") {
          if (inner) await current.dir(inner, entry.mode);
        } else await current.file(inner, entry.mode, entry.size, hashed(true));
        if (changed()) throw new ArchiveError(`the entry ${entry.path} changed since it was verified`);
        continue;
      }
      if (current) await finish(current);
      current = undefined;
      await Promise.all(committing);
      await clearTarget();
      const data: Buffer[] = [];
      for await (const c of hashed(false)) data.push(c);
      if (changed()) throw new ArchiveError(`the entry ${entry.path} changed since it was verified`);
      const items = Buffer.concat(data).toString("utf8").split("\n").filter(Boolean).map((line) => rewriteItem(decodeItem(line), mapping));
      await batchWrite(items.map((put) => ({ put })));
      itemsWritten += items.length;
      progress.update(itemsWritten);
    }
    if (current) await finish(current);
    current = undefined;
    await Promise.all(committing);
    await clearTarget();
  } catch (err) {
    await Promise.allSettled(committing);
    await Promise.all([...unfinished].map((repo) => repo.abort()));
    throw err;
  }
  progress.end();
  return {
    items: itemsWritten,
    repositories: manifest.repositories.length,
    bytes: manifest.counts.bytes,
    replacedItems: target.keys.length,
    seconds: (Date.now() - started) / 1000,
    manifest,
  };
}

async function startRepository(record: RepositoryRecord, mapping: StorageMapping, queue: WriteQueue): Promise<RepositoryRestore> {
  const restore = new RepositoryRestore(record, mapStorage(mapping, record.storage), queue);
  await restore.begin();
  return restore;
}
