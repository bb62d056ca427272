/**
 * Where one move is in the state machine, for the console's drawing of `storage-move.asl.json`: the
 * states it went through, the one it is in now, and where it failed and why. Pure.
 *
 * Two sources, the better one first:
 * - its execution's events (`GetExecutionHistory`): a per-container move's execution is its own, so
 *   every event is its; a storage-wide move shares its execution (locally; on AWS each batch is a
 *   child execution of the distributed Map) with other batches, so only the events of the states a
 *   batch runs whose input or output carries this move count. A state whose output carries the move
 *   with an `error` is where it failed; a step that failed as a whole is the last one entered before
 *   the failure path.
 * - its record's history (`scheduled`, `started`, `copied and verified`, `replicated`, …), which
 *   says which steps it passed but not, while it copies, exactly which task runs.
 * Both are merged: what the record says happened is marked even where the events were not read.
 *
 * The states are named here rather than read from `storage-move.asl.json`, which the function that
 * reads the events (with the Step Functions client) has no room to carry; `test/moves/move-path.test.ts`
 * holds every name to the definition, so a renamed state fails there.
 */
import { isTerminal, type MoveRecord } from "./records.js";

/** An execution event as `GetExecutionHistory` returns it (the fields read here). */
export interface ExecutionEvent {
  id?: number;
  type?: string;
  timestamp?: Date | string | number;
  stateEnteredEventDetails?: { name?: string; input?: string };
  stateExitedEventDetails?: { name?: string; output?: string };
  [details: string]: unknown;
}

export interface MovePath {
  /** States it went through, in the order first entered. */
  visited: string[];
  /** The state it is in now; null once it ended. */
  current: string | null;
  /** Where it failed, and the cause (the move's error message when the events do not say more). */
  failed: { state: string; cause: string } | null;
  /** Whether the events of its execution said where it is (else only its record did). */
  from: "execution" | "record";
}

/** The Map that runs batches of moves, and the states a batch goes through inside it. */
export const BATCH_MAP = "MoveRepositories";
export const BATCH_STATES: ReadonlySet<string> = new Set(["StartMoves", "WritesDrained", "WaitForWritesToDrain", "CheckWrites", "Replicate", "SwitchStorage", "Cleanup", "Finish", "AnyFailed", "Outcomes", "MarkFailed"]);

/** What each step of a move's record history says it went through (states of the batch's steps). */
export const STEPS: Record<string, string[]> = {
  started: ["StartMoves", "WritesDrained"],
  "waiting for writes to drain": ["WaitForWritesToDrain", "CheckWrites"],
  "copied and verified": ["Replicate"],
  replicated: ["Replicate", "SwitchStorage"],
  "source copy removed": ["Cleanup"],
  finished: ["Cleanup", "Finish", "AnyFailed", "Outcomes"],
  failed: ["MarkFailed"],
  "cleanup failed": ["MarkFailed"],
};

/** The states before the batch runs: how an execution of each kind gets there; and how a per-container one ends. */
export const BULK_WAY = ["Route", "FirstPage", "MoveAndScheduleNext", "HasNextPage", "ScheduleBatch", "AfterMoves", "NextPage"];
export const SINGLE_WAY = ["Route", "SingleMove", "MoveAndScheduleNext", "HasNextPage", "NoNextPage"];
export const SINGLE_END = ["AfterMoves", "MoveDone", "MoveFailed"];

/** The object of `move` in a state's input or output (a batch, a page of batches, a state), if any. */
export function findMoveIn(value: unknown, move: Pick<MoveRecord, "id" | "kind">): Record<string, unknown> | undefined {
  if (!value || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findMoveIn(item, move);
      if (found) return found;
    }
    return undefined;
  }
  const obj = value as Record<string, unknown>;
  if (obj.moveId === move.id && obj.kind === move.kind) return obj;
  for (const child of Object.values(obj)) {
    const found = findMoveIn(child, move);
    if (found) return found;
  }
  return undefined;
}

const parse = (text: string | undefined): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A `Catch`'s `{Error, Cause}` in words: a Lambda's Cause is its JSON error, with `errorMessage`. */
export function causeText(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const { Error: name, Cause: cause } = error as { Error?: unknown; Cause?: unknown };
  const parsed = typeof cause === "string" ? (parse(cause) as { errorMessage?: unknown } | undefined) : undefined;
  const message = parsed && typeof parsed.errorMessage === "string" ? parsed.errorMessage : typeof cause === "string" ? cause : undefined;
  return message?.trim() || (typeof name === "string" ? name : undefined);
}

function fromRecord(move: MoveRecord): MovePath {
  const visited = new Set<string>([...(move.bulkExecution ? BULK_WAY : SINGLE_WAY), BATCH_MAP]);
  for (const entry of move.history ?? []) for (const state of STEPS[entry.step] ?? []) visited.add(state);
  const failed = move.state === "failed" || move.state === "cleanup failed";
  if (isTerminal(move.state) && !move.bulkExecution) for (const state of [SINGLE_END[0]!, failed ? SINGLE_END[2]! : SINGLE_END[1]!]) visited.add(state);
  const last = move.history?.at(-1)?.step;
  const current = isTerminal(move.state)
    ? null
    : move.state === "initial"
      ? "Route"
      : move.state === "scheduled"
        ? BATCH_MAP
        : move.state === "replicated"
          ? "Cleanup"
          : last === "waiting for writes to drain"
            ? "WaitForWritesToDrain"
            : "Replicate";
  return { visited: [...visited], current, failed: failed ? { state: "MarkFailed", cause: move.errorMessage ?? "" } : null, from: "record" };
}

/**
 * The move's path. `events`: its execution's history, oldest first (undefined when it could not be
 * read); `ownExecution`: the execution runs this move alone (a per-container move).
 */
export function movePath(move: MoveRecord, events?: ExecutionEvent[], ownExecution = !move.bulkExecution): MovePath {
  const record = fromRecord(move);
  if (!events?.length) return record;
  const entered: string[] = [];
  let failedAt: { state: string; cause: string } | undefined;
  let lastTask: string | undefined;
  for (const event of events) {
    const enteredName = event.stateEnteredEventDetails?.name;
    const exitedName = event.stateExitedEventDetails?.name;
    if (enteredName) {
      const input = parse(event.stateEnteredEventDetails?.input);
      const mine = ownExecution ? true : BATCH_STATES.has(enteredName) && !!findMoveIn(input, move);
      if (!mine) continue;
      // The failure path entered with a whole step's error (a Catch): that step is where it failed.
      const stepError = (input as { error?: unknown } | undefined)?.error;
      if (!failedAt && event.type === "TaskStateEntered" && stepError && lastTask) failedAt = { state: lastTask, cause: causeText(stepError) ?? "" };
      if (event.type === "TaskStateEntered") lastTask = enteredName;
      entered.push(enteredName);
    } else if (exitedName && !failedAt && (ownExecution || BATCH_STATES.has(exitedName))) {
      const error = findMoveIn(parse(event.stateExitedEventDetails?.output), move)?.error;
      if (error) failedAt = { state: exitedName, cause: causeText(error) ?? "" };
    }
  }
  if (!entered.length) return record;
  // The way in first, then the states in the order the events entered them, then what only the record says.
  const visited = [...new Set([...record.visited.filter((s) => !BATCH_STATES.has(s)), ...entered, ...record.visited])];
  const failed = move.state === "failed" || move.state === "cleanup failed";
  // While the batch runs, the state of the batch's steps it is in (its own execution also runs others beside them).
  const inBatch = entered.filter((s) => BATCH_STATES.has(s));
  return {
    visited,
    current: isTerminal(move.state) ? null : (inBatch.at(-1) ?? entered.at(-1)!),
    failed: failed ? { state: failedAt?.state ?? record.failed!.state, cause: move.errorMessage ?? failedAt?.cause ?? "" } : null,
    from: "execution",
  };
}
