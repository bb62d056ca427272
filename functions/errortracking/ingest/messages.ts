/**
 * From a decoded request body to queue messages, with no I/O: `parseUnits` finds what an SDK sent
 * (events and session updates; everything else is accepted and dropped), `buildMessages` turns them
 * into `ingestMessageSchema` bodies. Tests drive these directly with the fixture captures.
 */
import { randomUUID } from "node:crypto";
import { MAX_MESSAGE_BYTES, type IngestMessage } from "../domain/contracts.js";
import { frameAll, type EnvelopeItem } from "./envelope.js";
import { parseJsonObject, parseStoreBody } from "./store.js";
import { fitMessage, hasGroupableContent, normalizeException } from "./normalize.js";
import { fail, normalizeId, ok, Refusal, type Result } from "./problem.js";
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

/** The largest payload kept per item type: events and session updates; everything else is dropped unread. */
export function keptItemLimit(limits: Pick<IngestLimits, "maxEventBytes">): (type: string) => number | undefined {
  return (type) => (type === "event" || SESSION_TYPES.has(type) ? limits.maxEventBytes : undefined);
}

/**
 * Turns an envelope's items into units as they stream by: counts, caps, the header's event id.
 * `add` throws a 400 `Refusal` for a kept item that is not a JSON object.
 */
export class EnvelopeUnits {
  private headerId: string | undefined;
  private firstEventId: string | undefined;
  private events = 0;
  private sessions = 0;
  dropped = 0;
  dsn: string | undefined;

  constructor(private readonly limits: Limits) {}

  header(headers: Record<string, unknown>): void {
    this.headerId = normalizeId(headers.event_id);
    this.dsn = typeof headers.dsn === "string" ? headers.dsn : undefined;
  }

  add(item: EnvelopeItem): Unit | undefined {
    const isEvent = item.type === "event";
    if (!isEvent && !SESSION_TYPES.has(item.type)) {
      this.dropped++;
      return undefined;
    }
    const payload = parseJsonObject(item.payload, `${item.type} item`);
    if (!payload.ok) throw new Refusal(payload.error);
    // Beyond the per-envelope caps items are accepted and dropped, as Relay drops excess sessions.
    if (isEvent ? this.events++ >= this.limits.maxEventsPerEnvelope : this.sessions++ >= this.limits.maxSessionsPerEnvelope) {
      this.dropped++;
      return undefined;
    }
    // The envelope's event_id overrides the payload's (spec), for the first event only: a second
    // event with the same id would be discarded by the consumer's idempotency.
    const unit = isEvent ? eventUnit(payload.value, this.events === 1 ? this.headerId : undefined) : { kind: "session" as const, payload: payload.value };
    if (!unit) this.dropped++;
    else if (unit.eventId) this.firstEventId ??= unit.eventId;
    return unit;
  }

  /** The id answered with 200: the envelope's, else the first event's, else a new one. */
  responseId(): string {
    return this.headerId ?? this.firstEventId ?? newId();
  }
}

/** A whole envelope in memory (tests and tools; ingestion streams it through the same classes). */
export function parseEnvelopeBody(body: Buffer, limits: Limits): Result<ParsedBody> {
  const envelope = new EnvelopeUnits(limits);
  const units: Unit[] = [];
  const framed = frameAll(body, { keep: keptItemLimit(limits) }, (e) => {
    if (e.kind === "header") return envelope.header(e.headers);
    const unit = envelope.add(e);
    if (unit) units.push(unit);
  });
  if (!framed.ok) return framed;
  return ok({ units, dsn: envelope.dsn, responseId: envelope.responseId(), dropped: envelope.dropped });
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
