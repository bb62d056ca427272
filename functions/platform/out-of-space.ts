/**
 * "No space left": one test for every way a full disk shows, so that each surface can answer it as
 * what it is (the API's 507, a `remote:` line for git, the collector's 503) instead of a 500.
 *
 * - The file system's `ENOSPC` and `EDQUOT`, on the error or anywhere in its `cause` chain.
 * - DynamoDB Local, the local runtime's table, on the data folder's disk. When SQLite cannot grow
 *   its files it only logs `SQLITE_FULL` ("[13] … [database or disk is full]") and answers every
 *   write, deletions included, with a bare `InternalFailure` (HTTP 500, "The request processing has
 *   failed because of an unknown error, exception or failure."). Such an answer counts as out of
 *   space while the disk under the table's folder (`FORGELINE_LOCAL_TABLE_DIR`, set by the local
 *   runtime when the table is on disk) has less than `LOW_SPACE_BYTES` free. On AWS there is no
 *   such folder, and an `InternalFailure` stays a 500.
 */
import { statfsSync } from "node:fs";

/** Below this much free space a disk counts as full: an item write or a push needs far less than this to fail. */
export const LOW_SPACE_BYTES = 4 * 1024 * 1024;

/** What every surface says, in its own format: nothing was written, and what would help. */
export const STORAGE_FULL_MESSAGE = "The storage is full, so nothing was written. Try again once space has been freed.";

const CODES = new Set(["ENOSPC", "EDQUOT"]);

/** A write that did not reach the disk whole for want of space (a short write), as the file system's own error would say. */
export class OutOfSpaceError extends Error {
  override name = "OutOfSpaceError";
  readonly code = "ENOSPC";
}

/** Free bytes for an unprivileged writer on the file system holding `path`; undefined when it cannot be read. */
export function freeBytes(path: string): number | undefined {
  try {
    const fs = statfsSync(path);
    return fs.bavail * fs.bsize;
  } catch {
    return undefined;
  }
}

export const isLowOnSpace = (path: string): boolean => (freeBytes(path) ?? Number.POSITIVE_INFINITY) < LOW_SPACE_BYTES;

function localTableIsLow(): boolean {
  const dir = process.env.FORGELINE_LOCAL_TABLE_DIR;
  return !!dir && isLowOnSpace(dir);
}

export function isOutOfSpace(err: unknown): boolean {
  let e = err;
  for (let depth = 0; e !== null && typeof e === "object" && depth < 8; depth++) {
    const { code, name, cause } = e as { code?: unknown; name?: unknown; cause?: unknown };
    if (typeof code === "string" && CODES.has(code)) return true;
    if (name === "InternalFailure" && localTableIsLow()) return true;
    e = cause;
  }
  return false;
}
