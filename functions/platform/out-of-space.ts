/**
 * "No space left": one test for the ways a full disk shows, so that each surface can answer it as
 * what it is (the API's 507, a `remote:` line for git, the collector's 503) instead of a 500:
 * `ENOSPC` or `EDQUOT`, on the error or anywhere in its `cause` chain. That is the file system's own
 * error, and what the local table answers too: DynamoDB Local would only fail once SQLite cannot
 * grow its files, with a bare `InternalFailure` (HTTP 500, "The request processing has failed
 * because of an unknown error, exception or failure.", SQLITE_FULL in its log alone), so its
 * launcher refuses writes below `LOW_SPACE_BYTES` free with `"code":"ENOSPC"`, which the AWS SDK
 * puts on its error (`local/LoopbackDynamoDB.java`).
 */
import { statfsSync } from "node:fs";

/** Below this much free space a disk counts as full: the table, the queue and pushes take no more writes. */
export const LOW_SPACE_BYTES = 4 * 1024 * 1024;

/** What every surface says, in its own format: what is wrong, and what would help. */
export const STORAGE_FULL_MESSAGE = "The storage is full. Try again once space is freed.";

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

export function isOutOfSpace(err: unknown, depth = 0): boolean {
  const e = err as Partial<NodeJS.ErrnoException> | undefined;
  return !!e && depth < 8 && (/^E(NOSPC|DQUOT)$/.test(e.code ?? "") || isOutOfSpace(e.cause, depth + 1));
}
