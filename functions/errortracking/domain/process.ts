/**
 * One batch of queue messages → stored events and session updates, counted with writes per error,
 * not per event (`record-events.ts`).
 *
 * The batch's events are grouped by project and error; each group is recorded on its own (groups of
 * different errors run concurrently), sessions one by one as before. An event id seen twice in one
 * batch is recorded once; its copies are duplicates. A body that is not a valid `ingestMessageSchema`
 * message is poison (`PoisonMessageError`): only its message fails. A group that cannot be recorded
 * now (DynamoDB unavailable, the deadline near) fails its messages alone; their redelivery counts
 * exactly what was not counted. Anything the schema accepts is processed, however odd the event
 * inside (see `event.ts`).
 */
import { gzipSync } from "node:zlib";
import { ingestMessageSchema, type IngestMessage } from "./contracts.js";
import { parseEvent } from "./event.js";
import { eventKey } from "./keys.js";
import { eventTags } from "./tags.js";
import { recordErrorEvents, type GroupEvent, type RecordResult } from "./record-events.js";
import { recordSession } from "./sessions.js";
import { alertingHooks } from "../hooks/store.js";
import { watchOf, type Trigger } from "../hooks/triggers.js";
import { enqueueDeliveries } from "../hooks/enqueue.js";
import { getItems } from "../../platform/db/table.js";
import { mapSettled } from "../../platform/concurrency.js";

export class PoisonMessageError extends Error {
  override name = "PoisonMessageError";
}

export function parseMessage(body: string): IngestMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new PoisonMessageError("body is not JSON");
  }
  const parsed = ingestMessageSchema.safeParse(json);
  if (!parsed.success) throw new PoisonMessageError(`not an ingest message: ${parsed.error.issues.map((i) => i.path.join(".") || i.code).join(", ")}`);
  return parsed.data;
}

/** `receivedAt` in one canonical form: retention compares it as a string. */
export function canonicalReceivedAt(raw: string): string {
  const ms = Date.parse(raw);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : new Date().toISOString();
}

/** A queue message as the consumer gets it. */
export interface QueueMessage {
  messageId: string;
  body: string;
}

/** What happened to each message: counted, already counted, or failed (retried by the queue). */
export interface BatchOutcome {
  results: Map<string, RecordResult>;
  failures: Array<{ messageId: string; error: unknown }>;
}

/** Groups of different errors recorded at once: each is a few transactions on its own items. */
const GROUPS_AT_ONCE = 25;

interface Group {
  projectId: number;
  errorId: number;
  events: GroupEvent[];
  /** Message ids per event id: the event's own message, then copies of it in the same batch. */
  messages: Map<string, string[]>;
}

export async function processIngestBatch(batch: readonly QueueMessage[], deadline: number): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { results: new Map(), failures: [] };
  const sessions: Array<{ messageId: string; msg: IngestMessage }> = [];
  const groups = new Map<string, Group>();
  const firstOf = new Map<string, Group>();
  for (const { messageId, body } of batch) {
    let msg: IngestMessage;
    try {
      msg = parseMessage(body);
    } catch (error) {
      outcome.failures.push({ messageId, error });
      continue;
    }
    if (msg.kind === "session") {
      sessions.push({ messageId, msg });
      continue;
    }
    // A copy of an event already in this batch takes that event's outcome.
    const id = `${msg.projectId}:${msg.eventId}`;
    const seen = firstOf.get(id);
    if (seen) {
      seen.messages.get(msg.eventId)!.push(messageId);
      continue;
    }
    const receivedAt = canonicalReceivedAt(msg.receivedAt);
    const e = parseEvent(msg.projectId, msg.payload, receivedAt);
    const key = `${msg.projectId}:${e.errorId}`;
    const group: Group = groups.get(key) ?? { projectId: msg.projectId, errorId: e.errorId, events: [], messages: new Map() };
    group.events.push({ msg, e, receivedAt, tags: eventTags(msg.payload, e), payloadGz: gzipSync(JSON.stringify(msg.payload)) });
    group.messages.set(msg.eventId, [messageId]);
    groups.set(key, group);
    firstOf.set(id, group);
  }

  const sessionsDone = mapSettled(sessions, 4, ({ msg }) => recordSession(msg, canonicalReceivedAt(msg.receivedAt)));
  const groupsDone = mapSettled([...groups.values()], GROUPS_AT_ONCE, (group) => recordGroup(group, deadline));
  (await sessionsDone).forEach((s, i) => {
    if (s.ok) outcome.results.set(sessions[i]!.messageId, s.value);
    else outcome.failures.push({ messageId: sessions[i]!.messageId, error: s.error });
  });
  const settled = await groupsDone;
  [...groups.values()].forEach((group, i) => {
    const s = settled[i]!;
    for (const [eventId, [own, ...copies]] of group.messages) {
      if (!s.ok) {
        for (const messageId of [own!, ...copies]) outcome.failures.push({ messageId, error: s.error });
        continue;
      }
      outcome.results.set(own!, s.value.get(eventId)!);
      for (const messageId of copies) outcome.results.set(messageId, "duplicate");
    }
  });
  return outcome;
}

/** Records one error's events, then hands their hook triggers (and those a duplicate's first delivery recorded) to the hook queue. */
async function recordGroup(group: Group, deadline: number): Promise<Map<string, RecordResult>> {
  // One cached read of the project's alerting hooks; without any, nothing below costs more.
  const hooks = await alertingHooks(group.projectId);
  const recorded = await recordErrorEvents(group.projectId, group.errorId, group.events, watchOf(hooks), deadline);
  if (hooks.length) {
    const fired = [...recorded].filter(([, r]) => r.triggers.length).map(([eventId, r]) => ({ eventId, triggers: r.triggers }));
    const duplicates = [...recorded].filter(([, r]) => r.result === "duplicate").map(([eventId]) => eventId);
    fired.push(...(await recordedTriggers(group.projectId, duplicates)));
    // Only enqueued here: delivery (and a slow or failing receiver) is the hook worker's business.
    await enqueueDeliveries(group.projectId, fired, hooks);
  }
  return new Map([...recorded].map(([eventId, r]) => [eventId, r.result]));
}

/** The triggers the first deliveries of these (duplicate) events wrote on their items. */
async function recordedTriggers(projectId: number, eventIds: string[]): Promise<Array<{ eventId: string; triggers: Trigger[] }>> {
  if (!eventIds.length) return [];
  const items = await getItems<{ hookTriggers?: Trigger[] }>(eventIds.map((id) => eventKey(projectId, id)));
  return eventIds.map((eventId, i) => ({ eventId, triggers: items[i]?.hookTriggers ?? [] })).filter((x) => x.triggers.length);
}
