/**
 * A batch of moves as it travels between the state machine's steps.
 *
 * Why batches: every step of a move is a Lambda invocation, a few Step Functions state transitions
 * and a conditional DynamoDB write. Run per repository, that fixed cost (not the copy) dominates a
 * storage-wide move. In a batch, each step is one invocation and one DynamoDB transaction for all of
 * its moves, while each move still has its own record, history and outcome.
 *
 * Failures keep that per-move shape, like a queue consumer's partial batch failures:
 * - a permanent error of one move (see `errors.ts`) is recorded on that move (`error`), which skips
 *   the remaining steps and ends on the failure path, while the other moves carry on;
 * - anything else is thrown after the step's other moves have settled, so Step Functions retries the
 *   whole step with backoff. Every step is idempotent per move, so a retry redoes nothing harmful.
 */
import { classifyError, PERMANENT_ERRORS } from "./errors.js";
import type { DrainPolicy, MoveInput } from "./execution.js";
import type { BulkRef } from "./bulk-control.js";
import { findMoves, type HistoryEntry, type MoveRecord, type MoveState } from "./records.js";
import type { MoveRef } from "./transitions.js";
import { mapSettled } from "../../platform/concurrency.js";

/** The `Error`/`Cause` pair Step Functions hands to a `Catch`; a Lambda's Cause is its JSON error. */
export interface CaughtError {
  Error?: string;
  Cause?: string;
}

/** Where a move is, as far as this execution is concerned. */
export type Stage = "started" | "replicated" | "done";

export interface MoveItem extends MoveInput, Partial<Pick<MoveRecord, "sourceStorage" | "destinationStorage" | "relativePath">> {
  /** Set by the start step: `started` (copy and switch next), `replicated` (clean up next) or `done`. */
  stage?: Stage;
  /** Steps done but not written yet; the move's next state change appends them to its history. */
  notes?: HistoryEntry[];
  /** This move's own failure; the failure path records it. */
  error?: CaughtError;
  /** The state it ended in, once this execution is done with it. */
  state?: MoveState;
  /** Writes were in flight when last checked (so "waiting" is noted once). */
  waiting?: boolean;
  /** A project's wiki repository, copied with it (set by the copy step, verified by the switch). */
  wikiPath?: string;
}

export interface MoveBatch {
  moves: MoveItem[];
  drain: DrainPolicy;
  /** The bulk move that scheduled the batch, if one did (see `bulk-control.ts`). */
  bulk?: BulkRef;
  executionId?: string;
  /** Epoch ms after which in-flight writes no longer count as draining but as a failure. */
  drainDeadline?: number;
  /** Some move still waits for writes to drain. */
  writesInFlight?: boolean;
  /** Some move failed; the state machine takes the failure path after the last step. */
  failed?: boolean;
  /** The whole step's failure (after its retries), as a `Catch` hands it over. */
  error?: CaughtError;
}

/** A move the start step has filled in from its record. */
export type ActiveMove = MoveItem & Pick<MoveRecord, "sourceStorage" | "destinationStorage" | "relativePath">;

/** The moves a step works on: at `stage`, and not failed. */
export const movesAt = (batch: MoveBatch, stage: Stage) => batch.moves.filter((m): m is ActiveMove => m.stage === stage && !m.error);

export const refOf = (m: ActiveMove): MoveRef => ({
  id: m.moveId,
  kind: m.kind,
  containerId: m.containerId,
  sourceStorage: m.sourceStorage,
  destinationStorage: m.destinationStorage,
  relativePath: m.relativePath,
});

/** Records `err` as the move's own failure, in the shape a `Catch` would have given it. */
export function failOne(move: MoveItem, err: Error): void {
  move.error = { Error: err.name, Cause: JSON.stringify({ errorMessage: err.message }) };
}

export const isPermanent = (err: unknown) => err instanceof Error && (PERMANENT_ERRORS as readonly string[]).includes(err.name);

/**
 * Runs `fn` for each move, `limit` at a time, and waits for all of them. A permanent error fails
 * that move only; the first other error is thrown once every move has settled.
 */
export async function forEachMove<M extends MoveItem>(moves: M[], limit: number, fn: (move: M) => Promise<void>): Promise<void> {
  let transient: unknown;
  (await mapSettled(moves, limit, fn)).forEach((outcome, i) => {
    if (outcome.ok) return;
    const classified = classifyError(outcome.error);
    if (isPermanent(classified)) failOne(moves[i]!, classified as Error);
    else transient ??= classified;
  });
  if (transient !== undefined) throw transient;
}

/**
 * After a batched state change: whether each move is now in `state`, either because this write
 * (`written[i]`) put it there or because it already was (an earlier try of a retried step). Only the
 * moves this write did not change are read again.
 */
export async function reachedState(moves: MoveItem[], written: boolean[], state: MoveState): Promise<Array<{ reached: boolean; now?: MoveState }>> {
  const others = moves.filter((_, i) => !written[i]);
  const records = others.length ? await findMoves(others) : [];
  return moves.map((move, i) => {
    if (written[i]) return { reached: true, now: state };
    const now = records[others.indexOf(move)]?.state;
    return { reached: now === state, now };
  });
}

/** The batch as the next step gets it: `failed` says whether any move carries its own error. */
export const settled = (batch: MoveBatch): MoveBatch => ({ ...batch, failed: batch.moves.some((m) => m.error !== undefined) });

export const note = (step: string, detail?: string): HistoryEntry => ({ step, at: new Date().toISOString(), ...(detail ? { detail } : {}) });
