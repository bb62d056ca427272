/**
 * Errors a move step raises on purpose. Their `name` is what Step Functions matches on (the Lambda
 * runtime reports `error.name` as the error type): the ASL never retries these, because running the
 * step again cannot change the outcome. Anything else (I/O hiccups, throttling) is retried.
 */
export class DrainTimeoutError extends Error {
  override name = "DrainTimeoutError";
}

/** The move or its container is not in the state this step expects (another actor changed it). */
export class MoveConflictError extends Error {
  override name = "MoveConflictError";
}

/** A storage refused the copy in a way retrying cannot fix (no space, not writable, blocked path). */
export class StorageIOError extends Error {
  override name = "StorageIOError";
}

/** Error names that end a move at once; kept in step with the ASL's first retrier. */
export const PERMANENT_ERRORS = [
  "DrainTimeoutError",
  "MoveConflictError",
  "StorageIOError",
  "ChecksumMismatchError",
  "RepositoryNotFoundError",
  "UnknownStorageError",
] as const;

const PERMANENT_IO_CODES = new Set(["ENOTDIR", "EISDIR", "EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "ENAMETOOLONG"]);

/** Gives file-system errors that retrying cannot fix a permanent name; leaves the rest as they are. */
export function classifyError(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (err instanceof Error && code && PERMANENT_IO_CODES.has(code) && !(PERMANENT_ERRORS as readonly string[]).includes(err.name)) {
    return new StorageIOError(err.message);
  }
  return err;
}
