/**
 * The console's view of one move's execution: its events, through `GetExecutionHistory` (the local
 * stand-in answers it as AWS does; on AWS the function may read the history of the state machine's
 * executions and nothing else), and where the move is in the state machine by them (`move-path.ts`).
 */
import { GetExecutionHistoryCommand, type HistoryEvent } from "@aws-sdk/client-sfn";
import { sfnClient } from "../../platform/aws-sfn.js";
import { executionRef, type ExecutionRef } from "./console-move.js";
import { BATCH_STATES, causeText, findMoveIn, movePath, type ExecutionEvent, type MovePath } from "./move-path.js";
import type { MoveRecord } from "./records.js";

/** Events read per execution at most (pages of 1000): a storage-wide move's execution can be long. */
export const MAX_EVENTS = 5000;
/** Events the view lists, the newest. */
const LISTED_EVENTS = 300;

/**
 * An execution's newest events, up to `MAX_EVENTS`, oldest first; `error` says why none could be
 * read. Read newest first (`reverseOrder`): a long storage-wide execution is cut at its oldest
 * events, so the late batches, and where a running move is now, stay within the cut.
 */
async function executionEvents(executionArn: string): Promise<{ events: HistoryEvent[]; complete: boolean; error?: string }> {
  const events: HistoryEvent[] = [];
  let nextToken: string | undefined;
  try {
    do {
      const page = await sfnClient().send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000, nextToken, reverseOrder: true, includeExecutionData: true }));
      events.push(...(page.events ?? []));
      nextToken = page.nextToken;
    } while (nextToken && events.length < MAX_EVENTS);
  } catch (err) {
    return { events: events.reverse(), complete: false, error: `${(err as Error).name}: ${(err as Error).message}` };
  }
  return { events: events.reverse(), complete: !nextToken };
}

/** What an event says in a line: its state, and a failure's error and cause. */
function eventLine(e: HistoryEvent) {
  const details = e as unknown as Record<string, { name?: string; error?: string; cause?: string; index?: number } | undefined>;
  const key = Object.keys(e).find((k) => k.endsWith("EventDetails") && details[k]);
  const d = key ? details[key]! : {};
  const failure = d.error || d.cause ? [d.error, d.cause && causeText({ Error: d.error, Cause: d.cause })].filter(Boolean).join(": ") : null;
  return {
    id: e.id ?? 0,
    timestamp: e.timestamp instanceof Date ? e.timestamp.toISOString() : null,
    type: e.type ?? "",
    state: d.name ?? null,
    detail: failure ?? (typeof d.index === "number" ? `iteration ${d.index}` : null),
  };
}

/** Of a shared execution, the events of the execution itself and of the batch states that carried this move. */
function eventsOf(move: MoveRecord, events: HistoryEvent[]): HistoryEvent[] {
  return events.filter((e) => {
    if (e.type?.startsWith("Execution")) return true;
    const data = e.stateEnteredEventDetails ? { name: e.stateEnteredEventDetails.name, text: e.stateEnteredEventDetails.input } : { name: e.stateExitedEventDetails?.name, text: e.stateExitedEventDetails?.output };
    if (!data.name || !BATCH_STATES.has(data.name) || !data.text) return false;
    try {
      return !!findMoveIn(JSON.parse(data.text), move);
    } catch {
      return false;
    }
  });
}

export interface MoveExecution extends ExecutionRef {
  events: ReturnType<typeof eventLine>[];
  /** Every event was read (false: a long history, cut before its oldest events). */
  complete: boolean;
  error: string | null;
  path: MovePath;
}

/**
 * The move's execution and its events. A move of a storage-wide move that has no execution of its
 * own yet (its batch has not started) only shares its parent's, whose events are none of its own:
 * that history is not read, the move answers its execution and its record's path alone.
 */
export async function moveExecution(move: MoveRecord): Promise<MoveExecution> {
  const ref = executionRef(move);
  const read = ref.arn && !(ref.shared && !move.executionArn) ? await executionEvents(ref.arn) : undefined;
  const mine = read ? (ref.shared ? eventsOf(move, read.events) : read.events) : [];
  return {
    ...ref,
    events: mine.slice(-LISTED_EVENTS).map(eventLine),
    complete: read?.complete ?? !!ref.arn,
    error: read?.error ?? null,
    // Of a shared execution, the events kept are those that carry the move: the path reads only them.
    path: movePath(move, read ? (mine as ExecutionEvent[]) : undefined, !ref.shared),
  };
}
