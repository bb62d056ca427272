/**
 * Restore's second pass: the verified archive read again into the staging area (`staging.ts`) —
 * every repository into every replica of its (mapped) storage, checksummed there, and the table's
 * items, storage names mapped, into one file. Nothing outside the staging area is written.
 *
 * Files are written in the background, bounded in bytes held, while the archive is read on; a few
 * finished repositories are checksummed at once. The pass holds the archive to what verification
 * saw — every entry listed in the manifest, with its type, size and sha256, each repository's
 * entries together — so an archive changed between the two passes is refused here.
 */
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { RepositoryRuns } from "./archive-checks.js";
import { ArchiveError } from "./errors.js";
import { mapStorage, rewriteItem, type StorageMapping } from "./mapping.js";
import { MANIFEST_PATH, repositoryPrefix, type Manifest } from "./manifest.js";
import type { ProgressSink } from "./progress.js";
import { RepositoryRestore } from "./restore-repository.js";
import type { StagingArea } from "./staging.js";
import { decodeItem, encodeItem } from "./table-io.js";
import { readTar } from "./tar-reader.js";
import { WriteQueue } from "./write-queue.js";

/** Background file writes: at most this many at once, holding at most this much content. */
const WRITE_OPS = 64;
const WRITE_BYTES = 64 << 20;
/** Finished repositories whose writes are awaited and copies checksummed at once. */
const FINISH_CONCURRENCY = 4;

export interface StagedArchive {
  /** The archive's items, one per line (table-io's encoding), storages mapped. */
  itemsFile: string;
  items: number;
  repositories: RepositoryRestore[];
}

export async function stageArchive(file: string, manifest: Manifest, mapping: StorageMapping, staging: StagingArea, progress: ProgressSink): Promise<StagedArchive> {
  const expected = new Map(manifest.entries.map((e) => [e.path, e] as const));
  const byPrefix = new Map(manifest.repositories.map((r) => [repositoryPrefix(r), r] as const));
  const changed = (path: string) => new ArchiveError(`the entry ${path} changed since it was verified`);
  const runs = new RepositoryRuns();
  const queue = new WriteQueue(WRITE_OPS, WRITE_BYTES);
  const itemsFile = staging.file("items.jsonl");
  const spool = await open(itemsFile, "wx", 0o600);
  const repositories: RepositoryRestore[] = [];
  const finishing: Array<Promise<void>> = [];
  const inFlight = new Set<Promise<void>>();
  // A finished repository's writes and checksums run in the background while the next one is read;
  // every outcome is kept in `finishing`, so a failure is reported even after it left `inFlight`.
  const finish = async (repo: RepositoryRestore) => {
    const done = repo.finish();
    finishing.push(done);
    done.catch(() => undefined);
    const tracked: Promise<void> = done.finally(() => inFlight.delete(tracked));
    tracked.catch(() => undefined);
    inFlight.add(tracked);
    while (inFlight.size >= FINISH_CONCURRENCY) await Promise.race(inFlight);
  };
  let current: RepositoryRestore | undefined;
  let entries = 0;
  let items = 0;
  progress.phase("Restoring repositories", manifest.counts.bytes, "bytes");
  try {
    for await (const entry of readTar(file)) {
      const { owner, ended } = runs.next(entry.path);
      if (ended) await finish(current!);
      if (entry.path === MANIFEST_PATH) continue;
      const want = expected.get(entry.path);
      if (!want || want.type !== entry.type || want.size !== entry.size) throw changed(entry.path);
      entries++;
      const hash = createHash("sha256");
      const hashed = async function* (countBytes: boolean) {
        for await (const c of entry.chunks()) {
          hash.update(c);
          if (countBytes) progress.add(c.length);
          yield c;
        }
      };
      const intact = () => entry.type === "dir" || hash.digest("hex") === want.sha256;
      if (owner) {
        const record = byPrefix.get(owner);
        if (!record) throw changed(entry.path);
        if (ended || !current) {
          current = new RepositoryRestore(record, mapStorage(mapping, record.storage), staging, queue);
          repositories.push(current);
          await current.begin();
        }
        const inner = entry.path.slice(owner.length + 1);
        if (entry.type === "dir") {
          if (inner) await current.dir(inner, entry.mode);
        } else await current.file(inner, entry.mode, entry.size, hashed(true));
        if (!intact()) throw changed(entry.path);
        continue;
      }
      current = undefined;
      const data: Buffer[] = [];
      for await (const c of hashed(false)) data.push(c);
      if (!intact()) throw changed(entry.path);
      const lines = Buffer.concat(data).toString("utf8").split("\n").filter(Boolean);
      if (lines.length) await spool.appendFile(lines.map((line) => encodeItem(rewriteItem(decodeItem(line), mapping)) + "\n").join(""));
      items += lines.length;
    }
    if (runs.end()) await finish(current!);
    if (entries !== expected.size) throw new ArchiveError("entries listed in the manifest went missing since it was verified");
    await Promise.all(finishing);
  } catch (err) {
    await Promise.allSettled(finishing);
    await Promise.all(repositories.map((r) => r.settle()));
    throw err;
  } finally {
    await spool.close();
  }
  progress.end();
  return { itemsFile, items, repositories };
}
