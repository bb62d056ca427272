/**
 * Copying one repository into the archive, read-consistently.
 *
 * The copy runs while the backup holds the repository's write lease (hosting/domain/write-path.ts):
 * no commit, wiki edit or snippet update can change it meanwhile, and a storage move that starts
 * waits for the lease like for any write. A repository that is read-only, or still held by a storage
 * move (`storageMoveId`, kept until the move is over), is waited for — bounded by `waitMs` — so the
 * archive never holds a repository in the middle of a move. The container item archived is the one
 * read under the lease, so item and repository agree on the storage and on the content.
 *
 * As a last line of defence (the lease is renewed while the copy runs, but a process that stalls
 * longer than FORGELINE_WRITE_LEASE_MS loses it), the refs checksum is taken before and after the
 * copy and must not change.
 */
import { join } from "node:path";
import { open, readdir } from "node:fs/promises";
import { checksum, primaryPath } from "../hosting/domain/git/index.js";
import { isInFlight } from "../hosting/domain/git/in-flight.js";
import { containerKey } from "../hosting/domain/keys.js";
import { withRepositoryWrite } from "../hosting/domain/write-path.js";
import { releaseWriteLeases, renewWhileHeld, takeWriteLeases } from "../hosting/domain/write-lease-batch.js";
import { mapSettled } from "../platform/concurrency.js";
import { ApiError } from "../platform/http/errors.js";
import { containerLabel, repositoriesOf, repositoryOf, withoutLease, type ContainerRef } from "./containers.js";
import { BackupError } from "./errors.js";
import { repositoryPrefix, type RepositoryRecord } from "./manifest.js";
import { getRawItem, getRawItems, type RawItem } from "./table-io.js";
import type { TarWriter, WrittenEntry } from "./tar-writer.js";

export interface ArchivedRepository {
  /** The container item as read under the lease (without the lease). */
  item: RawItem;
  /** Its repository, and a project's wiki repository when it has one (the same lease guards both). */
  records: RepositoryRecord[];
  entries: WrittenEntry[];
}

/** Thrown inside the lease to let go of it and wait: a storage move still holds the container. */
class HeldByMove extends Error {}

async function listRepository(root: string): Promise<{ dirs: string[]; files: string[] }> {
  const dirs: string[] = [];
  const files: string[] = [];
  const visit = async (rel: string) => {
    const entries = await readdir(rel ? join(root, rel) : root, { withFileTypes: true });
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      // Writes in flight and what killed ones left (`in-flight.ts`) are not data.
      if (isInFlight(child)) continue;
      if (e.isDirectory()) {
        dirs.push(child);
        await visit(child);
      } else if (e.isFile()) files.push(child);
    }
  };
  await visit("");
  // Refs (and HEAD, config) before objects, as a "refs-first" copy would: the objects they name exist.
  const isObject = (f: string) => f.startsWith("objects/");
  return { dirs, files: [...files.filter((f) => !isObject(f)), ...files.filter(isObject)] };
}

export interface ArchiveOptions {
  waitMs: number;
  onWait?: (why: string) => void;
  /**
   * Serialises the part that appends to the archive: several repositories are prepared at once
   * (lease, checksum, listing), but each one's entries must be contiguous in the archive.
   */
  exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
}

/** Returns undefined when the container (or its repository) no longer exists. */
export async function archiveRepository(tar: TarWriter, ref: ContainerRef, opts: ArchiveOptions): Promise<ArchivedRepository | undefined> {
  const deadline = Date.now() + opts.waitMs;
  for (let delay = 200; ; delay = Math.min(delay * 2, 5000)) {
    try {
      return await withRepositoryWrite(ref.kind, ref.id, async (location) => {
        const item = await getRawItem(containerKey(ref.kind, ref.id));
        if (!item || !location) return undefined;
        if (item.storageMoveId) throw new HeldByMove();
        return copyUnderLease(tar, withoutLease(item), opts.exclusive);
      });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      const waiting = err instanceof HeldByMove || (err instanceof ApiError && err.status === 409);
      if (!waiting) throw err;
      if (Date.now() > deadline) {
        throw new BackupError(
          `${containerLabel(ref)} stayed read-only or held by a storage move for ${Math.round(opts.waitMs / 1000)} s; ` +
            "let running moves finish (or raise FORGELINE_BACKUP_WAIT_MS) and run the backup again",
        );
      }
      opts.onWait?.(`waiting for ${containerLabel(ref)} (storage move or write in progress)`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

export interface BatchOutcome<T extends ContainerRef> {
  /** Copied under a lease the batch took, in the batch's order (`copied` undefined: no repository left). */
  done: Array<{ ref: T; copied: ArchivedRepository | undefined }>;
  /** Not taken with the batch (held by a write or a move, read-only, deleted): for `archiveRepository`, which waits. */
  alone: T[];
  /** Not copied because the batch had held its leases for `holdMs` already: for a later batch. */
  later: T[];
}

/**
 * Copies several containers' repositories, appended in the order given, under leases
 * taken together (`write-lease-batch.ts`: one transaction to take them, one read of the items, one
 * transaction to give them back). Each repository is copied exactly as `archiveRepository` copies
 * it — under its own write lease, from the container item read under that lease, refs checksums
 * before and after. To keep writers of the batch's other repositories from waiting long, no copy
 * starts once the batch has held its leases for `holdMs`: the rest is left for a later batch.
 */
export async function archiveBatch<T extends ContainerRef>(tar: TarWriter, refs: T[], opts: { holdMs: number }): Promise<BatchOutcome<T>> {
  const { held, refused } = await takeWriteLeases(refs);
  const outcome: BatchOutcome<T> = { done: [], alone: [...refused], later: [] };
  if (held.length === 0) return outcome;
  const takenAt = Date.now();
  const stopRenewing = renewWhileHeld(held);
  try {
    const items = await getRawItems(held.map(({ target }) => containerKey(target.kind, target.id)));
    const toCopy: Array<{ target: T; item: RawItem }> = [];
    for (const [i, { target }] of held.entries()) {
      const item = items[i];
      if (!item || item.storageMoveId) outcome.alone.push(target); // a move still holds it: wait for it alone
      else if (!repositoryOf(item)) outcome.done.push({ ref: target, copied: undefined });
      else toCopy.push({ target, item });
    }
    // A few repositories are prepared at once (checksum, listing); each appends once the one before
    // it is done, so the archive keeps the batch's order. Copies start in order, so those left for
    // later are the last ones.
    let turn: Promise<unknown> = Promise.resolve();
    const settled = await mapSettled(toCopy, PREPARE_AHEAD, async ({ target, item }, i) => {
      const after = turn;
      let finished!: () => void;
      turn = new Promise<void>((resolve) => (finished = resolve));
      try {
        if (i > 0 && Date.now() - takenAt > opts.holdMs) return { ref: target, later: true };
        return { ref: target, copied: await copyUnderLease(tar, withoutLease(item), (fn) => after.then(fn)), later: false };
      } finally {
        finished();
      }
    });
    for (const result of settled) {
      if (!result.ok) throw result.error;
      const { ref, copied, later } = result.value;
      if (later) outcome.later.push(ref);
      else outcome.done.push({ ref, copied });
    }
  } finally {
    stopRenewing();
    await releaseWriteLeases(held);
  }
  return outcome;
}

/** Repositories of a batch prepared while earlier ones append. */
const PREPARE_AHEAD = 8;
const SMALL = 1 << 20;
const READ_AHEAD = 32;

/** A small file's content, mode and time, read through one open file (so all three agree). */
async function readSmall(path: string): Promise<{ data: Buffer; mode: number; mtime: number } | undefined> {
  const fh = await open(path, "r");
  try {
    const st = await fh.stat();
    if (st.size > SMALL) return undefined;
    const data = Buffer.alloc(st.size);
    let got = 0;
    while (got < st.size) {
      const { bytesRead } = await fh.read(data, got, st.size - got, got);
      if (bytesRead === 0) throw new Error(`${path} shrank while it was being archived`);
      got += bytesRead;
    }
    return { data, mode: st.mode, mtime: st.mtimeMs / 1000 };
  } finally {
    await fh.close();
  }
}

async function copyUnderLease(tar: TarWriter, item: RawItem, exclusive: ArchiveOptions["exclusive"]): Promise<ArchivedRepository> {
  const records: RepositoryRecord[] = [];
  const entries: WrittenEntry[] = [];
  for (const repo of repositoriesOf(item)) {
    const copied = await copyRepository(tar, repo, exclusive);
    records.push(copied.record);
    for (const e of copied.entries) entries.push(e);
  }
  return { item, records, entries };
}

async function copyRepository(tar: TarWriter, repo: ReturnType<typeof repositoriesOf>[number], exclusive: ArchiveOptions["exclusive"]) {
  const before = await checksum(repo.storage, repo.relativePath).catch((err: unknown) => {
    throw new BackupError(`${containerLabel(repo)} points at ${repo.storage}:${repo.relativePath}, which cannot be read (${(err as Error).message})`);
  });
  const root = primaryPath(repo.storage, repo.relativePath);
  const prefix = repositoryPrefix(repo);
  const { dirs, files } = await listRepository(root);
  const entries: WrittenEntry[] = [];
  await exclusive(async () => {
    entries.push(await tar.dir(prefix));
    for (const d of dirs) entries.push(await tar.dir(`${prefix}/${d}`));
    // Loose objects are many small files: read a batch at once, append them in order.
    for (let i = 0; i < files.length; i += READ_AHEAD) {
      const batch = files.slice(i, i + READ_AHEAD);
      const small = await Promise.all(batch.map((f) => readSmall(join(root, f))));
      for (const [j, f] of batch.entries()) {
        const content = small[j];
        entries.push(content ? await tar.file(`${prefix}/${f}`, content.data, content.mode, content.mtime) : await tar.fileFromDisk(`${prefix}/${f}`, join(root, f)));
      }
    }
  });
  const after = await checksum(repo.storage, repo.relativePath);
  if (after !== before) {
    throw new BackupError(`${containerLabel(repo)} changed while it was copied under its write lease (the lease was lost while the backup stalled?); run the backup again`);
  }
  const bytes = entries.reduce((n, e) => n + e.size, 0);
  const record: RepositoryRecord = { kind: repo.kind, id: repo.id, storage: repo.storage, relative_path: repo.relativePath, checksum: before, files: files.length, bytes };
  return { record, entries };
}
