/**
 * One queue message → one stored event or session update. A body that is not a valid
 * `ingestMessageSchema` message is poison (`PoisonMessageError`): the consumer reports it as a batch
 * item failure, so it alone is retried and then dead-lettered. Anything the schema accepts is
 * processed, however odd the event inside (see `event.ts`).
 */
import { ingestMessageSchema, type IngestMessage } from "./contracts.js";
import { parseEvent } from "./event.js";
import { recordEvent, type RecordResult } from "./record-event.js";
import { alertingHooks } from "../hooks/store.js";
import { watchOf } from "../hooks/triggers.js";
import { enqueueDeliveries } from "../hooks/enqueue.js";
import { recordSession } from "./sessions.js";

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

export async function processMessage(body: string): Promise<RecordResult> {
  const msg = parseMessage(body);
  const receivedAt = canonicalReceivedAt(msg.receivedAt);
  if (msg.kind === "session") return recordSession(msg, receivedAt);
  // One cached read of the project's alerting hooks; without any, nothing below costs more.
  const hooks = await alertingHooks(msg.projectId);
  const recorded = await recordEvent(msg, parseEvent(msg.projectId, msg.payload, receivedAt), receivedAt, watchOf(hooks));
  // Only enqueued here: delivery (and a slow or failing receiver) is the hook worker's business.
  if (hooks.length && recorded.triggers.length) await enqueueDeliveries(msg.projectId, msg.eventId, recorded.triggers, hooks);
  return recorded.result;
}
