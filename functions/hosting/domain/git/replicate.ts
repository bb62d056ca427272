/**
 * Copying a repository to another storage (GitLab's "repository storage moves"), with the same
 * checksum verification GitLab performs before it switches a project to the new storage.
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { checksumOfDir } from "./checksum.js";
import { ChecksumMismatchError } from "./errors.js";
import { isErrno, removeDirectory, removeOwnLeftovers, tempName } from "./fs-util.js";
import { requireRepository } from "./lifecycle.js";
import { withRepositoryMutex } from "./mutex.js";
import { syncRepositoryDir } from "./replica-sync.js";
import { replicaPaths } from "./storage.js";

export interface RepositoryLocation {
  storage: string;
  rel: string;
}

export interface ReplicateOptions {
  /** Named in the mismatch message, e.g. "project" → "Failed to verify project repository checksum…". */
  kind?: string;
  /** Runs between the copy and the verification; a seam for fault injection in tests. */
  beforeVerify?: (destinationPaths: string[]) => Promise<void> | void;
  /** Runs once every temporary copy is complete, before they are renamed into place; the same kind of seam. */
  afterCopy?: (temporaryPaths: string[]) => Promise<void> | void;
}

/**
 * Copies `from` (its primary copy) into every replica of `to`, replacing any previous copy there,
 * then checks each destination's checksum against the source's. On mismatch every destination copy
 * is removed and `ChecksumMismatchError` is thrown.
 *
 * The source is only read. Each destination is assembled in a sibling temporary folder (named after
 * the current writer, see `writer.ts`) and renamed into place, so a crash never leaves a half-written repository under the final name. Refs are
 * copied before objects (see `replica-sync.ts`), so the copy is consistent as long as the source's
 * refs do not change; if they do, the checksum comparison fails rather than accepting a mixed copy.
 */
export async function replicate(
  from: RepositoryLocation,
  to: RepositoryLocation,
  opts: ReplicateOptions = {},
): Promise<void> {
  const source = await requireRepository(from.storage, from.rel);
  const targets = replicaPaths(to.storage, to.rel);
  if (targets.includes(source)) throw new Error("Cannot replicate a repository onto itself");
  const expected = await checksumOfDir(source);

  await withRepositoryMutex(targets[0]!, async () => {
    // An earlier, interrupted try of this same move left its copies under its own name: gone first.
    await Promise.all(targets.map((target) => removeOwnLeftovers(target)));
    const temps = targets.map((target) => `${target}.${tempName()}`);
    try {
      await Promise.all(temps.map((tmp) => syncRepositoryDir(source, tmp, "refs-first")));
      await opts.afterCopy?.(temps);
    } catch (err) {
      await Promise.all(temps.map((tmp) => rm(tmp, { recursive: true, force: true })));
      throw err;
    }
    await Promise.all(targets.map((target, i) => moveIntoPlace(temps[i]!, target)));

    await opts.beforeVerify?.(targets);
    const actual = await Promise.all(targets.map((target) => checksumOfDir(target)));
    const mismatch = actual.find((sum) => sum !== expected);
    if (mismatch !== undefined) {
      await Promise.all(targets.map((target) => removeDirectory(target)));
      throw new ChecksumMismatchError(expected, mismatch, opts.kind);
    }
  });
}

/** Renames a finished copy to its final name, atomically replacing an existing repository there. */
export async function moveIntoPlace(tmp: string, target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  try {
    await rename(tmp, target);
    return;
  } catch (err) {
    if (!isErrno(err, "ENOTEMPTY") && !isErrno(err, "EEXIST")) throw err;
  }
  const old = `${target}.${tempName()}.replaced`;
  await rename(target, old);
  await rename(tmp, target);
  await rm(old, { recursive: true, force: true });
}
