/**
 * Starting executions of the storage-move state machine (`functions/moves/storage-move.asl.json`).
 * Execution names are derived from what they move, so an operator finds a repository's move in the
 * Step Functions console by name, and a retried start of the same move is refused as a duplicate
 * instead of running twice.
 */
import { StartExecutionCommand } from "@aws-sdk/client-sfn";
import { randomBytes } from "node:crypto";
import { sfnClient } from "../../platform/aws-sfn.js";
import { resources } from "../../platform/resources.js";
import type { MoveKind } from "../keys.js";
import type { MoveRecord } from "./records.js";
import type { BulkRef } from "./bulk-control.js";

/**
 * How long a move waits for in-flight writes (unexpired write leases) to finish, and how often it
 * looks. GitLab polls 3 times, 10 s apart; the defaults give the same bound.
 */
export interface DrainPolicy {
  timeoutSeconds: number;
  intervalSeconds: number;
}

const positive = (raw: string | undefined, fallback: number) => {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

export function drainPolicy(overrides: Partial<DrainPolicy> = {}): DrainPolicy {
  return {
    timeoutSeconds: overrides.timeoutSeconds ?? positive(process.env.FORGELINE_MOVE_DRAIN_TIMEOUT_SECONDS, 30),
    intervalSeconds: overrides.intervalSeconds ?? positive(process.env.FORGELINE_MOVE_DRAIN_INTERVAL_SECONDS, 10),
  };
}

/** One repository's move, as the state machine receives it. */
export interface MoveInput {
  moveId: number;
  kind: MoveKind;
  containerId: number;
}

/**
 * What one iteration of the state machine's Map runs: a few moves that go through the steps
 * together, each step one task invocation and one batched DynamoDB write for all of them (a single
 * move is a batch of one). See `domain/batch.ts`.
 */
export interface MoveBatchInput {
  moves: MoveInput[];
  drain: DrainPolicy;
  /** The bulk move that scheduled them: its batches look whether it was canceled before they start. */
  bulk?: BulkRef;
}

/** Input of a bulk execution: it pages through the source storage and schedules as it goes. */
export interface BulkInput {
  bulk: {
    kind: MoveKind;
    source: string;
    destination?: string;
    pageSize: number;
    drain: DrainPolicy;
    /**
     * When the bulk move was scheduled (ISO 8601); every move it creates is newer. Carried in the
     * input rather than read from `$$.Execution.StartTime`, which the local runner resets when it
     * starts an interrupted execution again.
     */
    scheduledAt?: string;
  };
}

export class ExecutionStartError extends Error {
  override name = "ExecutionStartError";
}

/**
 * `project-42-move-7-lx3k9a`: what moves (searching the console for `project-42` finds every move
 * of project 42), the move id, and its creation time so a wiped table never collides.
 */
export const moveExecutionName = (move: Pick<MoveRecord, "kind" | "id" | "containerId" | "createdAt">) =>
  `${move.kind}-${move.containerId}-move-${move.id}-${Date.parse(move.createdAt).toString(36)}`;

async function start(name: string, input: unknown): Promise<string | undefined> {
  try {
    const out = await sfnClient().send(
      new StartExecutionCommand({ stateMachineArn: resources.storageMoveMachineArn(), name, input: JSON.stringify(input) }),
    );
    return out.executionArn;
  } catch (err) {
    // The same name was started before (a retried request): that execution is this move's.
    if ((err as { name?: string }).name === "ExecutionAlreadyExists") return undefined;
    throw new ExecutionStartError(`Could not start the storage move execution: ${(err as Error).message}`);
  }
}

export function startMoveExecution(move: MoveRecord, drain: DrainPolicy) {
  const input: MoveBatchInput = { moves: [{ moveId: move.id, kind: move.kind, containerId: move.containerId }], drain };
  return start(moveExecutionName(move), input);
}

export function startBulkExecution(bulk: BulkInput["bulk"] & { scheduledAt: string }) {
  const stamp = `${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
  const name = `bulk-${bulk.kind}-from-${bulk.source}-${stamp}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80);
  return start(name, { bulk } satisfies BulkInput);
}
