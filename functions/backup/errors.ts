import { OperatorError } from "../../local/operator-errors.js";

/**
 * Errors the backup CLIs print as they are (one clear sentence, no stack): anything else is a bug or
 * an infrastructure failure.
 */
export class BackupError extends OperatorError {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** The archive failed verification; restore has written nothing. */
export class ArchiveError extends BackupError {
  constructor(reason: string) {
    super(`The backup archive is damaged: ${reason}. Nothing was restored.`);
    this.name = "ArchiveError";
  }
}

/** Restore refused because the target instance holds data (see `emptiness.ts`). */
export class NotEmptyError extends BackupError {
  constructor(readonly found: string[]) {
    super(
      `The target instance is not empty (found ${found.join(", ")}). Restore replaces a whole instance; ` +
        "run it again with --force to delete everything in this instance (table items and their repositories) first. Nothing was restored.",
    );
    this.name = "NotEmptyError";
  }
}

/** The target holds a restore that was interrupted while it made another archive live (`restore-marker.ts`). */
export class InterruptedRestoreError extends BackupError {
  constructor(what: string, file: string) {
    super(
      `The target instance is incomplete: ${what}. Run that restore again to finish it (npm run restore -- ${file}), ` +
        "or run this one with --force to replace everything in the instance. Nothing was restored.",
    );
    this.name = "InterruptedRestoreError";
  }
}
