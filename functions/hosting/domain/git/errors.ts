/**
 * Errors raised by the repository domain. `GitActionError` is a user error that GitLab answers
 * with `400 {"message": "..."}`, so it is an `ApiError` and needs no translation in the HTTP layer.
 * The others are operator/internal conditions the caller decides how to surface.
 */
import { ApiError } from "../../../platform/http/errors.js";

export class GitActionError extends ApiError {
  constructor(message: string) {
    super(400, { message });
    // ApiError stores the JSON body as the message; callers and logs want the plain sentence.
    this.message = message;
    this.name = "GitActionError";
  }
}

export class UnknownStorageError extends Error {
  constructor(readonly storage: string) {
    super(`Unknown repository storage: ${storage}`);
    this.name = "UnknownStorageError";
  }
}

export class RepositoryNotFoundError extends Error {
  constructor(
    readonly storage: string,
    readonly relativePath: string,
  ) {
    super(`Repository not found: ${storage}:${relativePath}`);
    this.name = "RepositoryNotFoundError";
  }
}

export class ChecksumMismatchError extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
    kind?: string,
  ) {
    // Same wording as GitLab's UpdateRepositoryStorage service, so moves fail with a familiar message.
    super(`Failed to verify ${kind ? `${kind} ` : ""}repository checksum from ${expected} to ${actual}`);
    this.name = "ChecksumMismatchError";
  }
}

/**
 * A revert (or cherry-pick) that does not apply: GitLab answers `400` with the sentence and an
 * `error_code` saying why — `conflict`, or `empty` when nothing would change.
 */
export class ChangeError extends ApiError {
  constructor(
    message: string,
    readonly errorCode: "conflict" | "empty",
  ) {
    super(400, { message, error_code: errorCode });
    this.message = message;
    this.name = "ChangeError";
  }
}
