/**
 * The console's view of one move from its record: the history as a timeline (times and durations),
 * the checksum its switch verified, which execution runs it (and its Step Functions console page on
 * AWS), and where it is in the state machine as far as its record says (`move-path.ts`). Its
 * execution's events, and the path they tell more exactly, are `console-execution.ts`'s: only that
 * function carries the Step Functions client.
 */
import { linked, required } from "../../platform/resources.js";
import { containersOf, displayPath } from "./containers.js";
import { consoleUrl } from "./console-url.js";
import { movePath, type MovePath } from "./move-path.js";
import { isTerminal, type MoveRecord } from "./records.js";
import type { MoveRow } from "./console-moves.js";

/** The execution a move runs in: its own record says, or (before its batch started) the bulk execution that scheduled it. */
export function executionArnOf(move: MoveRecord): string | undefined {
  if (move.executionArn) return move.executionArn;
  if (!move.bulkExecution) return undefined;
  // The console's move and execution views have the machine's ARN from their read-only link.
  return `${required(linked("StorageMoveHistory").arn, "StorageMoveHistory").replace(":stateMachine:", ":execution:")}:${move.bulkExecution}`;
}

export interface ExecutionRef {
  arn: string | null;
  /** The execution in the Step Functions console, on AWS. */
  console_url: string | null;
  /** Shared with other moves (a storage-wide move's): its events are not all this move's. */
  shared: boolean;
}

export const executionRef = (move: MoveRecord): ExecutionRef => {
  const arn = executionArnOf(move) ?? null;
  return { arn, console_url: consoleUrl(arn) ?? null, shared: !!move.bulkExecution };
};

export interface MoveDetails {
  /** The move as the moves list shows it. */
  move: MoveRow;
  /** Its history, each step with how long until the next (or, for the last of a running move, until now). */
  timeline: Array<{ step: string; at: string; detail: string | null; seconds: number | null }>;
  /** What the switch verified: the source's checksum, equal on every destination replica. */
  checksum: string | null;
  execution: ExecutionRef;
  path: MovePath;
}

export async function moveDetails(move: MoveRecord, now = Date.now()): Promise<MoveDetails> {
  const [container] = await containersOf([{ kind: move.kind, containerId: move.containerId }]);
  const history = move.history ?? [];
  const timeline = history.map((h, i) => {
    const next = history[i + 1]?.at ?? (isTerminal(move.state) ? undefined : new Date(now).toISOString());
    return { step: h.step, at: h.at, detail: h.detail ?? null, seconds: next ? Math.max(0, (Date.parse(next) - Date.parse(h.at)) / 1000) : null };
  });
  const replicated = history.find((h) => h.step === "replicated")?.detail;
  return {
    move: {
      type: move.kind,
      id: move.id,
      state: move.state,
      source_storage_name: move.sourceStorage,
      destination_storage_name: move.destinationStorage,
      created_at: move.createdAt,
      updated_at: move.updatedAt,
      error_message: move.errorMessage,
      container: container ? { id: move.containerId, name: displayPath(move.kind, container) } : null,
      bulk_execution_name: move.bulkExecution ?? null,
    },
    timeline,
    checksum: replicated?.startsWith("checksum ") ? replicated.slice("checksum ".length) : null,
    execution: executionRef(move),
    path: movePath(move),
  };
}
