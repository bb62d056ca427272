/**
 * From a decoded request body to queue messages, with no I/O: `parseUnits` finds what an SDK sent
 * (events and session updates; everything else is accepted and dropped), `buildMessages` turns them
 * into `ingestMessageSchema` bodies. Tests drive these directly with the fixture captures.
 */
import { randomUUID } from "node:crypto";
import { MAX_MESSAGE_BYTES, type IngestMessage } from "../domain/contracts.js";
import { parseEnvelope } from "./envelope.js";
import { parseJsonObject, parseStoreBody } from "./store.js";
import { fitMessage, hasGroupableContent, normalizeException } from "./normalize.js";
import { fail, normalizeId, ok, type Result } from "./problem.js";
import type { IngestLimits } from "./limits.js";

export interface Unit {
  kind: IngestMessage["kind"];
  payload: Record<string, unknown>;
  /** For an event: the id it keeps (envelope header first, then its own `event_id`). */
  eventId?: string;
}

export interface ParsedBody {
  units: Unit[];
  /** The envelope header `dsn`, which may authenticate an envelope (`sentry-protocol.md` C.2). */
  dsn?: string;
  /** The id answered with 200: the envelope's or the first event's; generated when there is none. */
  responseId: string;
  /** Items accepted and dropped (transactions, client reports, attachments, unknown types, …). */
  dropped: number;
}

/** Item types that are queued; `sessions` is the aggregate form (Python request mode, Ruby). */
const SESSION_TYPES = new Set(["session", "sessions"]);

type Limits = Pick<IngestLimits, "maxEventBytes" | "maxEventsPerEnvelope" | "maxSessionsPerEnvelope">;

const newId = () => randomUUID().replace(/-/g, "");

function eventUnit(payload: Record<string, unknown>, id: string | undefined): Unit | undefined {
  normalizeException(payload);
  // Events with neither an exception nor a message give the consumer nothing to group on: dropped.
  if (!hasGroupableContent(payload)) return undefined;
  const eventId = id ?? normalizeId(payload.event_id) ?? newId();
  payload.event_id = eventId;
  return { kind: "event", payload, eventId };
}

export async function parseStore(body: Buffer, limits: Limits): Promise<Result<ParsedBody>> {
  if (body.length > limits.maxEventBytes) return fail(413, `event exceeds ${limits.maxEventBytes} bytes`);
  const event = await parseStoreBody(body, limits.maxEventBytes);
  if (!event.ok) return event;
  const unit = eventUnit(event.value, undefined);
  const responseId = unit?.eventId ?? normalizeId(event.value.event_id) ?? newId();
  return ok({ units: unit ? [unit] : [], responseId, dropped: unit ? 0 : 1 });
}

export function parseEnvelopeBody(body: Buffer, limits: Limits): Result<ParsedBody> {
  const envelope = parseEnvelope(body);
  if (!envelope.ok) return envelope;
  const headerId = normalizeId(envelope.value.headers.event_id);
  const units: Unit[] = [];
  let events = 0;
  let sessions = 0;
  let dropped = 0;
  for (const item of envelope.value.items) {
    const isEvent = item.type === "event";
    if (!isEvent && !SESSION_TYPES.has(item.type)) {
      dropped++;
      continue;
    }
    if (isEvent && item.payload.length > limits.maxEventBytes) return fail(413, `event exceeds ${limits.maxEventBytes} bytes`);
    if (!isEvent && item.payload.length > limits.maxEventBytes) return fail(413, `${item.type} item exceeds ${limits.maxEventBytes} bytes`);
    const payload = parseJsonObject(item.payload, `${item.type} item`);
    if (!payload.ok) return payload;
    // Beyond the per-envelope caps items are accepted and dropped, as Relay drops excess sessions.
    if (isEvent ? events++ >= limits.maxEventsPerEnvelope : sessions++ >= limits.maxSessionsPerEnvelope) {
      dropped++;
      continue;
    }
    // The envelope's event_id overrides the payload's (spec), for the first event only: a second
    // event with the same id would be discarded by the consumer's idempotency.
    const unit = isEvent ? eventUnit(payload.value, events === 1 ? headerId : undefined) : { kind: "session" as const, payload: payload.value };
    if (unit) units.push(unit);
    else dropped++;
  }
  const dsn = typeof envelope.value.headers.dsn === "string" ? envelope.value.headers.dsn : undefined;
  const responseId = headerId ?? units.find((u) => u.eventId)?.eventId ?? newId();
  return ok({ units, dsn, responseId, dropped });
}

/**
 * Queue bodies for the units, trimmed under `MAX_MESSAGE_BYTES`. They satisfy `ingestMessageSchema`
 * by construction (ids come from `normalizeId`/`newId`, the numbers from a validated key), which the
 * tests check on every body they produce; running zod here cost ~3% of the request's CPU.
 * A session's id is fresh: only SQS redelivery (same body) must be idempotent for sessions.
 */
export function buildMessages(units: Unit[], ctx: { projectId: number; keyId: number; receivedAt: string }): string[] {
  const bodies: string[] = [];
  for (const unit of units) {
    const eventId = unit.eventId ?? newId();
    const serialize = (payload: Record<string, unknown>) =>
      toSqsBody({ eventId, projectId: ctx.projectId, keyId: ctx.keyId, receivedAt: ctx.receivedAt, kind: unit.kind, payload });
    const body = fitMessage(unit.payload, serialize, MAX_MESSAGE_BYTES);
    if (body !== undefined) bodies.push(body);
  }
  return bodies;
}

/**
 * JSON escapes control characters and lone surrogates but not U+FFFE/U+FFFF, which SQS refuses in a
 * body; they can only occur inside JSON strings, so their `\u` escapes keep the JSON identical.
 * A structure too deep to stringify yields undefined (the trimmer then cuts its depth).
 */
export function toSqsBody(message: IngestMessage): string | undefined {
  try {
    return JSON.stringify(message).replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  } catch {
    return undefined;
  }
}
