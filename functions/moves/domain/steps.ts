/**
 * The steps of one move up to the switch, as the state machine runs them. Each step re-reads the
 * move and the container and checks they are as the step expects, so a redelivered or retried step
 * either does the same thing again harmlessly or stops with a `MoveConflictError`.
 */
import { hasWriteInFlight } from "../../hosting/domain/write-path.js";
import { checksum, replicaChecksums, replicate, ChecksumMismatchError } from "../../hosting/domain/git/index.js";
import { kindInfo, loadContainer, type AnyContainer } from "./containers.js";
import { DrainTimeoutError, MoveConflictError } from "./errors.js";
import { drainPolicy, type MoveInput } from "./execution.js";
import { requireMove, type MoveRecord, type MoveState } from "./records.js";
import { markStarted, noteStep, switchStorage } from "./transitions.js";

/** What travels between the states of one move. */
export interface MoveWork extends MoveInput {
  executionId?: string;
  /** Epoch ms after which in-flight writes no longer count as draining but as a failure. */
  drainDeadline: number;
  /** Where the state machine continues after the start step. */
  resumeAt: "CheckWrites" | "Cleanup" | "Done";
  state: MoveState;
  writesInFlight?: boolean;
}

/**
 * `scheduled → started`. A move that is no longer `scheduled` was handled already (GitLab's
 * idempotent re-delivery): nothing to do — unless this very execution is running it again (a retried
 * step, or the local runner restarting an interrupted execution), which resumes where it was.
 */
export async function startMove(input: { move: Omit<MoveInput, "drain"> & { drain?: MoveInput["drain"] }; executionId?: string }): Promise<MoveWork> {
  const { moveId, kind, containerId } = input.move;
  const drain = drainPolicy(input.move.drain);
  let move = await requireMove(kind, moveId);
  if (move.state === "scheduled" && (await markStarted(move, input.executionId))) move = { ...move, state: "started", executionArn: input.executionId };
  else move = await requireMove(kind, moveId);
  const ours = (move.executionArn ?? null) === (input.executionId ?? null);
  const resumeAt = !ours ? "Done" : move.state === "started" ? "CheckWrites" : move.state === "replicated" ? "Cleanup" : "Done";
  return { moveId, kind, containerId, drain, executionId: input.executionId, drainDeadline: Date.now() + drain.timeoutSeconds * 1000, resumeAt, state: move.state };
}

/** The move (read now, or just read by the caller) and its container, as a step after the start expects them. */
async function startedMove(work: MoveWork, current?: MoveRecord): Promise<{ move: MoveRecord; container: AnyContainer }> {
  const move = current ?? (await requireMove(work.kind, work.moveId));
  if (move.state !== "started") throw new MoveConflictError(`Storage move ${move.id} is ${move.state}, not started`);
  const container = await loadContainer(move.kind, move.containerId);
  if (!container || container.storageMoveId !== move.id || container.storage !== move.sourceStorage || !container.readOnly) {
    throw new MoveConflictError(`The ${kindInfo[move.kind].repositoryType} repository is no longer held read-only on ${move.sourceStorage} by storage move ${move.id}`);
  }
  return { move, container };
}

/** In-flight writes are writes holding an unexpired lease; new ones are refused while read-only. */
export async function checkWrites(work: MoveWork): Promise<MoveWork> {
  const { move, container } = await startedMove(work);
  const writesInFlight = hasWriteInFlight(container);
  if (writesInFlight && Date.now() > work.drainDeadline) {
    throw new DrainTimeoutError(`Timeout waiting for ${kindInfo[move.kind].repositoryType} repository pushes`);
  }
  if (writesInFlight && work.writesInFlight === undefined) await noteStep(move, "waiting for writes to drain");
  return { ...work, writesInFlight };
}

/** Copies the repository to every replica of the destination and verifies each checksum. */
export async function replicateRepository(work: MoveWork): Promise<MoveWork> {
  const { move } = await startedMove(work);
  await replicate(
    { storage: move.sourceStorage, rel: move.relativePath },
    { storage: move.destinationStorage, rel: move.relativePath },
    { kind: kindInfo[move.kind].repositoryType },
  );
  await noteStep(move, "copied and verified", `to ${move.destinationStorage}`);
  const { writesInFlight: _, ...rest } = work;
  return rest;
}

/**
 * Points the container at the destination. The copies are verified once more right before the
 * conditional write, so nothing that happened to them since the replication step goes unnoticed.
 */
export async function switchToDestination(work: MoveWork): Promise<MoveWork> {
  const current = await requireMove(work.kind, work.moveId);
  if (current.state === "replicated") return { ...work, state: "replicated" }; // retry after a committed switch
  const { move } = await startedMove(work, current);
  const expected = await checksum(move.sourceStorage, move.relativePath);
  const mismatch = (await replicaChecksums(move.destinationStorage, move.relativePath)).find((sum) => sum !== expected);
  if (mismatch !== undefined) throw new ChecksumMismatchError(expected, mismatch, kindInfo[move.kind].repositoryType);
  if (!(await switchStorage(move, `checksum ${expected}`))) {
    const after = await requireMove(move.kind, move.id);
    if (after.state !== "replicated") throw new MoveConflictError(`Storage move ${move.id} could not switch the repository to ${move.destinationStorage}`);
  }
  return { ...work, state: "replicated" };
}
