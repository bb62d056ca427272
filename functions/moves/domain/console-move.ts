/**
 * The console's view of one move: its record as a timeline (times and durations), the checksum its
 * switch verified, its execution (the Step Functions console page on AWS, the events through
 * `GetExecutionHistory` anywhere: the local stand-in answers it as AWS does), and where it is in the
 * state machine (`move-path.ts`).
 */
import { GetExecutionHistoryCommand, type HistoryEvent } from "@aws-sdk/client-sfn";
import { sfnClient } from "../../platform/aws-sfn.js";
import { resources } from "../../platform/resources.js";
import { STORAGE_MOVE_DEFINITION } from "./storage-move-definition.js";
import { containersOf, displayPath } from "./containers.js";
import { consoleUrl } from "./console-url.js";
import { batchStates, causeText, findMoveIn, movePath, type ExecutionEvent, type MovePath } from "./move-path.js";
import { isTerminal, type MoveRecord } from "./records.js";

/** Events read per execution at most (pages of 1000): a storage-wide move's execution can be long. */
const MAX_EVENTS = 5000;
/** Events the view lists, the newest. */
const LISTED_EVENTS = 300;

/** An execution's events, oldest first, up to `MAX_EVENTS`; `error` says why none could be read. */
export async function executionEvents(executionArn: string): Promise<{ events: HistoryEvent[]; complete: boolean; error?: string }> {
  const events: HistoryEvent[] = [];
  let nextToken: string | undefined;
  try {
    do {
      const page = await sfnClient().send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000, nextToken, includeExecutionData: true }));
      events.push(...(page.events ?? []));
      nextToken = page.nextToken;
    } while (nextToken && events.length < MAX_EVENTS);
  } catch (err) {
    return { events, complete: false, error: `${(err as Error).name}: ${(err as Error).message}` };
  }
  return { events, complete: !nextToken };
}

/** The execution a move runs in: its own record says, or (before its batch started) the bulk execution that scheduled it. */
export function executionArnOf(move: MoveRecord): string | undefined {
  if (move.executionArn) return move.executionArn;
  if (!move.bulkExecution) return undefined;
  return `${resources.storageMoveMachineArn().replace(":stateMachine:", ":execution:")}:${move.bulkExecution}`;
}

const iso = (t: HistoryEvent["timestamp"]) => (t instanceof Date ? t.toISOString() : t === undefined ? null : new Date(Number(t) * 1000).toISOString());

/** What an event says in a line: its state, and a failure's error and cause. */
function eventLine(e: HistoryEvent) {
  const details = e as unknown as Record<string, { name?: string; error?: string; cause?: string; index?: number } | undefined>;
  const key = Object.keys(e).find((k) => k.endsWith("EventDetails") && details[k]);
  const d = key ? details[key]! : {};
  const failure = d.error || d.cause ? [d.error, d.cause && (causeText({ Error: d.error, Cause: d.cause }) ?? d.cause)].filter(Boolean).join(": ") : null;
  return {
    id: e.id ?? 0,
    timestamp: iso(e.timestamp),
    type: e.type ?? "",
    state: d.name ?? null,
    detail: failure ?? (typeof d.index === "number" ? `iteration ${d.index}` : null),
  };
}

/** The events of its execution that concern this move: all of its own execution's; of a shared one, the execution's and this move's states'. */
function eventsOf(move: MoveRecord, events: HistoryEvent[], own: boolean): HistoryEvent[] {
  if (own) return events;
  const inner = batchStates(STORAGE_MOVE_DEFINITION)?.inner ?? new Set<string>();
  return events.filter((e) => {
    if (e.type?.startsWith("Execution")) return true;
    const entered = e.stateEnteredEventDetails;
    const exited = e.stateExitedEventDetails;
    const data = entered ? { name: entered.name, text: entered.input } : exited ? { name: exited.name, text: exited.output } : undefined;
    if (!data?.name || !inner.has(data.name) || !data.text) return false;
    try {
      return !!findMoveIn(JSON.parse(data.text), move);
    } catch {
      return false;
    }
  });
}

export interface MoveDetails {
  move: {
    type: MoveRecord["kind"];
    id: number;
    state: MoveRecord["state"];
    source_storage_name: string;
    destination_storage_name: string;
    created_at: string;
    updated_at: string;
    error_message: string | null;
    container: { id: number; name: string } | null;
    bulk_execution_name: string | null;
  };
  /** Its history, each step with how long until the next (or, for the last of a running move, until now). */
  timeline: Array<{ step: string; at: string; detail: string | null; seconds: number | null }>;
  /** What the switch verified: the source's checksum, equal on every destination replica. */
  checksum: string | null;
  execution: {
    arn: string | null;
    /** The execution in the Step Functions console, on AWS. */
    console_url: string | null;
    /** Shared with other moves (a storage-wide move's): `events` are this move's and the execution's own. */
    shared: boolean;
    events: ReturnType<typeof eventLine>[];
    /** Every event was read (false: a long history, cut at the first events). */
    complete: boolean;
    error: string | null;
  };
  path: MovePath;
}

export async function moveDetails(move: MoveRecord, now = Date.now()): Promise<MoveDetails> {
  const arn = executionArnOf(move);
  const own = !move.bulkExecution;
  const [[container], read] = await Promise.all([containersOf([{ kind: move.kind, containerId: move.containerId }]), arn ? executionEvents(arn) : undefined]);
  const history = move.history ?? [];
  const timeline = history.map((h, i) => {
    const next = history[i + 1]?.at ?? (isTerminal(move.state) ? undefined : new Date(now).toISOString());
    return { step: h.step, at: h.at, detail: h.detail ?? null, seconds: next ? Math.max(0, (Date.parse(next) - Date.parse(h.at)) / 1000) : null };
  });
  const replicated = history.find((h) => h.step === "replicated")?.detail;
  const mine = read ? eventsOf(move, read.events, own) : [];
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
    execution: {
      arn: arn ?? null,
      console_url: consoleUrl(arn) ?? null,
      shared: !own,
      events: mine.slice(-LISTED_EVENTS).map(eventLine),
      complete: read?.complete ?? false,
      error: read?.error ?? null,
    },
    path: movePath(STORAGE_MOVE_DEFINITION, move, read?.events as ExecutionEvent[] | undefined, own),
  };
}
