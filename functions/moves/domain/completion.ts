/**
 * The end of a move: removing the source copy, `finished`, and the failure path. The one rule every
 * deletion here follows: never remove the copy the container points at.
 */
import { removeRepository } from "../../hosting/domain/git/index.js";
import { describeError, log } from "../../platform/log.js";
import { loadContainer } from "./containers.js";
import { MoveConflictError } from "./errors.js";
import { findMove, isTerminal, requireMove, truncateError, type MoveState } from "./records.js";
import { markCleanupFailed, markFailed, markFinished, noteStep } from "./transitions.js";
import type { MoveWork } from "./steps.js";

/** Removes the source copy, once the container is on the destination. */
export async function cleanupSource(work: MoveWork): Promise<MoveWork> {
  const move = await requireMove(work.kind, work.moveId);
  if (move.state === "finished") return { ...work, state: move.state };
  if (move.state !== "replicated") throw new MoveConflictError(`Storage move ${move.id} is ${move.state}, not replicated`);
  const container = await loadContainer(move.kind, move.containerId);
  if (container && container.storage !== move.destinationStorage) {
    throw new MoveConflictError(`Refusing to remove the source copy: the repository is recorded on ${container.storage}`);
  }
  await removeRepository(move.sourceStorage, move.relativePath);
  await noteStep(move, "source copy removed", `from ${move.sourceStorage}`);
  return work;
}

export async function finishMove(work: MoveWork): Promise<{ moveId: number; state: MoveState }> {
  const move = await requireMove(work.kind, work.moveId);
  if (move.state !== "finished" && !(await markFinished(move))) {
    const after = await requireMove(move.kind, move.id);
    if (after.state !== "finished") throw new MoveConflictError(`Storage move ${move.id} is ${after.state}, not replicated`);
  }
  return { moveId: move.id, state: "finished" };
}

/** The `Error`/`Cause` pair Step Functions hands to a `Catch`; a Lambda's Cause is its JSON error. */
export interface CaughtError {
  Error?: string;
  Cause?: string;
}

export function failureMessage(error: CaughtError | undefined): string {
  let message = error?.Cause ?? "";
  try {
    const parsed = JSON.parse(message) as { errorMessage?: string };
    if (parsed && typeof parsed.errorMessage === "string") message = parsed.errorMessage;
  } catch {
    /* a plain message */
  }
  return truncateError(message.trim() || error?.Error || "Unknown error");
}

/**
 * GitLab's `do_fail`: `failed` while the repository is still on the source (it becomes writable
 * there again, and a partial destination copy is removed first), `cleanup failed` once switched.
 */
export async function failMove(work: Pick<MoveWork, "kind" | "moveId"> & { error?: CaughtError }): Promise<{ moveId: number; state: MoveState }> {
  const move = await findMove(work.kind, work.moveId);
  if (!move) return { moveId: work.moveId, state: "failed" };
  if (isTerminal(move.state)) return { moveId: move.id, state: move.state };
  const message = failureMessage(work.error);
  if (move.state === "replicated") {
    await markCleanupFailed(move, message);
    return { moveId: move.id, state: "cleanup failed" };
  }
  const container = await loadContainer(move.kind, move.containerId);
  // Before unlocking: once writable, a new move could start copying to that very path.
  if (container?.storage !== move.destinationStorage && move.destinationStorage !== move.sourceStorage) {
    await removeRepository(move.destinationStorage, move.relativePath).catch((err: unknown) =>
      // A leftover copy is only garbage (the container does not point at it) and the next move there replaces it.
      log.warn("could not remove a partial destination copy", { moveId: move.id, kind: move.kind, ...describeError(err) }),
    );
  }
  if (!(await markFailed(move, message))) {
    const after = await requireMove(move.kind, move.id);
    if (!isTerminal(after.state)) throw new MoveConflictError(`Storage move ${move.id} could not be marked failed (state ${after.state})`);
    return { moveId: move.id, state: after.state };
  }
  return { moveId: move.id, state: "failed" };
}
