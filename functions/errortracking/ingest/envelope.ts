/**
 * Sentry envelope framing (`sentry-protocol.md` C.3), incrementally:
 *
 *     Envelope = Headers { "\n" Item } [ "\n" ]      Item = Headers "\n" Payload
 *
 * The framer is fed the decoded body chunk by chunk and hands out one event at a time: the envelope
 * header first (so the caller can authenticate its `dsn` before anything else is decoded), then each
 * item. Only the payloads of item types the caller keeps are assembled, each within its limit (413);
 * attachments and every other dropped type are skipped as they stream, never buffered, so what a
 * request holds is one line or one kept payload, whatever the envelope's size.
 *
 * Works on bytes, because an item's `length` counts bytes. With `length` the payload is exactly that
 * many bytes and must be followed by "\n" or the end; without it the payload runs to the next "\n" or
 * the end. A "\r" stays with its line (JSON.parse ignores it). Blank lines where an item header is
 * expected are skipped, so a doubled trailing newline is not an error.
 */
import { Meter } from "./budget.js";
import { fail, isObject, ok, Refusal, refuse, type Result } from "./problem.js";

export interface EnvelopeItem {
  type: string;
  headers: Record<string, unknown>;
  /** The payload for kept types; empty for dropped ones (skipped unread). */
  payload: Buffer;
}

export type FrameEvent = { kind: "header"; headers: Record<string, unknown> } | ({ kind: "item" } & EnvelopeItem);

export interface FramerOptions {
  /** The largest payload kept for `type`, or undefined to skip the type's payloads unread. */
  keep(type: string): number | undefined;
  /** Bounds the work one request can cause; real envelopes carry a handful of items. */
  maxItems?: number;
  meter?: Meter;
}

/** Envelope and item header lines are single-line JSON objects of a few hundred bytes. */
export const MAX_HEADER_LINE_BYTES = 64 * 1024;
const NL = 0x0a;

type State =
  | { at: "envelope-header" | "leading-blank" | "item-header" }
  | { at: "after-payload"; type: string }
  | { at: "payload"; type: string; headers: Record<string, unknown>; keep: number | undefined; remaining: number | undefined };

function isBlank(buf: Buffer): boolean {
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

function jsonObject(buf: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(buf.toString("utf8"));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const tooLarge = (type: string, max: number) => refuse(413, type === "event" ? `event exceeds ${max} bytes` : `${type.slice(0, 32)} item exceeds ${max} bytes`);

export class EnvelopeFramer {
  private state: State = { at: "envelope-header" };
  private chunk: Buffer = Buffer.alloc(0);
  private pos = 0;
  /** Absolute offset of `chunk[0]` in the body, for error messages. */
  private base = 0;
  /** Bytes of the line or kept payload being assembled (charged to the meter). */
  private parts: Buffer[] = [];
  private partBytes = 0;
  private lineStart = 0;
  private items = 0;
  private ended = false;
  private readonly meter: Meter;
  private readonly maxItems: number;

  constructor(private readonly opts: FramerOptions) {
    this.meter = opts.meter ?? new Meter(false);
    this.maxItems = opts.maxItems ?? 10_000;
  }

  /** Feeds the next chunk; call only after `next()` returned undefined. */
  push(chunk: Buffer): void {
    this.base += this.chunk.length;
    this.chunk = chunk;
    this.pos = 0;
  }

  /** Marks the end of the body; `next()` then returns what the last bytes complete. */
  end(): void {
    this.push(Buffer.alloc(0));
    this.ended = true;
  }

  /** The next complete event, or undefined when more bytes are needed (or the body is done). Throws `Refusal`. */
  next(): FrameEvent | undefined {
    for (;;) {
      const s = this.state;
      if (s.at === "payload") {
        const event = this.payload(s);
        if (event) return event;
        if (this.state === s) return undefined;
        continue;
      }
      if (s.at === "after-payload") {
        if (this.pos >= this.chunk.length) return undefined;
        if (this.chunk[this.pos] !== NL) throw refuse(400, `item "${s.type.slice(0, 32)}" is longer than its length`);
        this.pos++;
        this.state = { at: "item-header" };
        continue;
      }
      const line = this.line();
      if (!line) return undefined;
      const event = this.onLine(s.at, line);
      if (event) return event;
    }
  }

  /** A complete header line (without its "\n"), or undefined when it continues in the next chunk. */
  private line(): Buffer | undefined {
    if (this.partBytes === 0) this.lineStart = this.base + this.pos;
    const nl = this.chunk.indexOf(NL, this.pos);
    const end = nl === -1 ? this.chunk.length : nl;
    if (end > this.pos) this.take(this.chunk.subarray(this.pos, end), MAX_HEADER_LINE_BYTES, () => refuse(413, `a header line exceeds ${MAX_HEADER_LINE_BYTES} bytes`));
    this.pos = nl === -1 ? this.chunk.length : nl + 1;
    if (nl === -1 && !this.ended) return undefined;
    if (nl === -1 && this.partBytes === 0 && this.state.at !== "leading-blank" && this.state.at !== "envelope-header") return undefined;
    return this.drainParts();
  }

  private onLine(at: "envelope-header" | "leading-blank" | "item-header", line: Buffer): FrameEvent | undefined {
    const atEof = this.ended && this.pos >= this.chunk.length;
    if (at === "envelope-header" || at === "leading-blank") {
      if (isBlank(line)) {
        if (atEof) throw refuse(400, "empty envelope");
        this.state = { at: "leading-blank" };
        return undefined;
      }
      const headers = at === "envelope-header" ? jsonObject(line) : undefined;
      if (!headers) throw refuse(400, "invalid envelope header: expected a JSON object on the first line");
      this.state = { at: "item-header" };
      return { kind: "header", headers };
    }
    if (isBlank(line)) return undefined;
    const headers = jsonObject(line);
    if (!headers) throw refuse(400, `invalid item header at byte ${this.lineStart}`);
    const type = headers.type;
    if (typeof type !== "string" || type === "") throw refuse(400, `item header at byte ${this.lineStart} has no type`);
    if (++this.items > this.maxItems) throw refuse(413, `envelope has more than ${this.maxItems} items`);
    const length = headers.length;
    const keep = this.opts.keep(type);
    let remaining: number | undefined;
    if (length !== undefined && length !== null) {
      if (typeof length !== "number" || !Number.isSafeInteger(length) || length < 0) throw refuse(400, `item "${type.slice(0, 32)}" has an invalid length`);
      if (keep !== undefined && length > keep) throw tooLarge(type, keep);
      remaining = length;
    }
    this.state = { at: "payload", type, headers, keep, remaining };
    return undefined;
  }

  /** Consumes payload bytes of the current chunk; returns the item once its payload is complete. */
  private payload(s: Extract<State, { at: "payload" }>): FrameEvent | undefined {
    const available = this.chunk.length - this.pos;
    let complete: boolean;
    if (s.remaining !== undefined) {
      const n = Math.min(s.remaining, available);
      this.keepBytes(s, this.chunk.subarray(this.pos, this.pos + n));
      this.pos += n;
      s.remaining -= n;
      complete = s.remaining === 0;
      if (!complete && this.ended) throw refuse(400, `item "${s.type.slice(0, 32)}" is shorter than its length`);
      if (complete) this.state = { at: "after-payload", type: s.type };
    } else {
      const nl = this.chunk.indexOf(NL, this.pos);
      const end = nl === -1 ? this.chunk.length : nl;
      this.keepBytes(s, this.chunk.subarray(this.pos, end));
      this.pos = nl === -1 ? this.chunk.length : nl + 1;
      complete = nl !== -1 || this.ended;
      if (complete) this.state = { at: "item-header" };
    }
    if (!complete) return undefined;
    return { kind: "item", type: s.type, headers: s.headers, payload: s.keep === undefined ? Buffer.alloc(0) : this.drainParts() };
  }

  private keepBytes(s: Extract<State, { at: "payload" }>, bytes: Buffer): void {
    if (s.keep !== undefined && bytes.length > 0) this.take(bytes, s.keep, () => tooLarge(s.type, s.keep!));
  }

  private take(bytes: Buffer, max: number, over: () => Refusal): void {
    if (this.partBytes + bytes.length > max) throw over();
    this.meter.hold(bytes.length);
    this.parts.push(bytes);
    this.partBytes += bytes.length;
  }

  /** The assembled bytes, handed to the caller and no longer charged to this framer. */
  private drainParts(): Buffer {
    const out = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    this.meter.release(this.partBytes);
    this.parts = [];
    this.partBytes = 0;
    return out;
  }
}

export interface Envelope {
  headers: Record<string, unknown>;
  items: EnvelopeItem[];
}

/** Frames a body already in memory, calling `fn` for each event; a refusal (also one `fn` throws) becomes the Failure. */
export function frameAll(body: Buffer, opts: FramerOptions, fn: (event: FrameEvent) => void): Result<void> {
  const framer = new EnvelopeFramer(opts);
  try {
    framer.push(body);
    for (let e = framer.next(); e; e = framer.next()) fn(e);
    framer.end();
    for (let e = framer.next(); e; e = framer.next()) fn(e);
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, error: err.failure };
    throw err;
  }
  return ok(undefined);
}

/** A whole envelope in memory, every item's payload kept (tests and tools; ingestion streams). */
export function parseEnvelope(body: Buffer, maxItems = 10_000): Result<Envelope> {
  let headers: Record<string, unknown> | undefined;
  const items: EnvelopeItem[] = [];
  const framed = frameAll(body, { keep: () => Number.MAX_SAFE_INTEGER, maxItems }, (e) => {
    if (e.kind === "header") headers = e.headers;
    else items.push({ type: e.type, headers: e.headers, payload: e.payload });
  });
  if (!framed.ok) return framed;
  return headers ? ok({ headers, items }) : fail(400, "empty envelope");
}
