/**
 * The end of a move: removing the source copy, `finished`, and the failure path. The one rule every
 * deletion here follows: never remove the copy the container points at.
 */
import { removeRepository } from "../../hosting/domain/git/index.js";
import { projectWikiPath } from "../../hosting/domain/project-wiki.js";
import { describeError, log } from "../../platform/log.js";
import { mapSettled } from "../../platform/concurrency.js";
import { failOne, forEachMove, movesAt, note, reachedState, settled, type CaughtError, type MoveBatch, type MoveItem } from "./batch.js";
import { containersOf, loadContainer } from "./containers.js";
import { MoveConflictError } from "./errors.js";
import { faultPoint } from "./fault-injection.js";
import { causeText } from "./move-path.js";
import { findMove, isTerminal, moveOwner, requireMove, truncateError, type MoveState } from "./records.js";
import { runAsWriter } from "../../hosting/domain/git/writer.js";
import { markAllFinished, markCleanupFailed, markFailed } from "./transitions.js";
import { recordFinished } from "./throughput.js";

const REMOVE_CONCURRENCY = 4;

/**
 * Every repository a move carries: the container's own, and for a project the path of its wiki.
 * The wiki's is included whether or not the wiki exists (removing an absent repository does
 * nothing), so a resumed cleanup needs no record of it.
 */
const repositoriesOf = (move: { kind: MoveItem["kind"]; relativePath: string }) =>
  move.kind === "project" ? [move.relativePath, projectWikiPath(move.relativePath)] : [move.relativePath];

/** Removes each switched repository's source copy, once its container is on the destination. */
export async function cleanupSources(input: MoveBatch): Promise<MoveBatch> {
  const batch = structuredClone(input);
  const moves = movesAt(batch, "replicated");
  const containers = await containersOf(moves);
  await forEachMove(moves, REMOVE_CONCURRENCY, async (move) => {
    const container = containers[moves.indexOf(move)];
    if (container && container.storage !== move.destinationStorage) {
      throw new MoveConflictError(`Refusing to remove the source copy: the repository is recorded on ${container.storage}`);
    }
    await runAsWriter({ owner: moveOwner(move) }, async () => {
      for (const relativePath of repositoriesOf(move)) {
        await removeRepository(move.sourceStorage, relativePath, { beforeDelete: (doomed) => faultPoint("moveCleanup", "deleting", { move, doomed }) });
      }
    });
    move.notes = [...(move.notes ?? []), note("source copy removed", `from ${move.sourceStorage}`)];
  });
  return settled(batch);
}

/** `replicated → finished` for the batch's cleaned-up moves, releasing their containers, in one transaction. */
export async function finishMoves(input: MoveBatch): Promise<MoveBatch> {
  const batch = structuredClone(input);
  const moves = movesAt(batch, "replicated");
  const done = await markAllFinished(moves.map((m) => ({ move: { id: m.moveId, kind: m.kind, containerId: m.containerId }, notes: m.notes })));
  await recordFinished(done.filter(Boolean).length);
  // Not finished by this write: finished by an earlier try (a retry), or someone else changed it.
  (await reachedState(moves, done, "finished")).forEach(({ reached, now }, i) => {
    const move = moves[i]!;
    if (!reached) failOne(move, new MoveConflictError(`Storage move ${move.moveId} is ${now ?? "gone"}, not replicated`));
    else Object.assign(move, { stage: "done", state: "finished", notes: [] });
  });
  return settled(batch);
}

/**
 * The failure path: each move that failed on its own, and every move this execution was still
 * working on when a whole step failed (`error`, from the `Catch`), ends `failed` or `cleanup failed`.
 * Moves already done are left as they are. Returns each move's outcome.
 */
export async function failMoves(batch: MoveBatch): Promise<{ moves: Array<{ moveId: number; kind: MoveItem["kind"]; state: MoveState }> }> {
  const outcomes = await forEachOutcome(batch.moves, async (move) => {
    const error = move.error ?? (move.stage === "done" ? undefined : batch.error);
    if (!error) return move.state ?? (await findMove(move.kind, move.moveId))?.state ?? "failed";
    return (await failMove({ kind: move.kind, moveId: move.moveId, error, notes: move.notes })).state;
  });
  return { moves: batch.moves.map((m, i) => ({ moveId: m.moveId, kind: m.kind, state: outcomes[i]! })) };
}

/** Unlike the steps, the failure path fails as a whole (after every move settled), so it is retried until it is recorded. */
async function forEachOutcome(moves: MoveItem[], fn: (move: MoveItem) => Promise<MoveState>): Promise<MoveState[]> {
  const results = await mapSettled(moves, REMOVE_CONCURRENCY, fn);
  const failure = results.find((r) => !r.ok);
  if (failure && !failure.ok) throw failure.error;
  return results.map((r) => (r.ok ? r.value : "failed"));
}

/** A caught error as the move's error message: the Lambda's `errorMessage`, else the Cause or Error (`causeText`). */
export function failureMessage(error: CaughtError | undefined): string {
  return truncateError(causeText(error) || "Unknown error");
}

/**
 * GitLab's `do_fail`: `failed` while the repository is still on the source (it becomes writable
 * there again, and a partial destination copy is removed first), `cleanup failed` once switched.
 */
async function failMove(work: Pick<MoveItem, "kind" | "moveId" | "notes"> & { error?: CaughtError }): Promise<{ moveId: number; state: MoveState }> {
  const move = await findMove(work.kind, work.moveId);
  if (!move) return { moveId: work.moveId, state: "failed" };
  if (isTerminal(move.state)) return { moveId: move.id, state: move.state };
  const message = failureMessage(work.error);
  if (move.state === "replicated") {
    await markCleanupFailed(move, message, work.notes);
    return { moveId: move.id, state: "cleanup failed" };
  }
  const container = await loadContainer(move.kind, move.containerId);
  // Before unlocking: once writable, a new move could start copying to that very path.
  if (container?.storage !== move.destinationStorage && move.destinationStorage !== move.sourceStorage) {
    await runAsWriter({ owner: moveOwner(work) }, async () => {
      for (const relativePath of repositoriesOf(move)) await removeRepository(move.destinationStorage, relativePath);
    }).catch((err: unknown) =>
      // A leftover copy is only garbage (the container does not point at it) and the next move there replaces it.
      log.warn("could not remove a partial destination copy", { moveId: move.id, kind: move.kind, ...describeError(err) }),
    );
  }
  if (!(await markFailed(move, message, work.notes))) {
    const after = await requireMove(move.kind, move.id);
    if (!isTerminal(after.state)) throw new MoveConflictError(`Storage move ${move.id} could not be marked failed (state ${after.state})`);
    return { moveId: move.id, state: after.state };
  }
  return { moveId: move.id, state: "failed" };
}
