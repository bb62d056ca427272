/**
 * Sentry envelope framing (`sentry-protocol.md` C.3):
 *
 *     Envelope = Headers { "\n" Item } [ "\n" ]      Item = Headers "\n" Payload
 *
 * Works on bytes, not text, because an item's `length` counts bytes. With `length` the payload is
 * exactly that many bytes and must be followed by "\n" or the end; without it the payload runs to the
 * next "\n" or the end. A "\r" stays with its line (JSON.parse ignores it). Blank lines where an item
 * header is expected are skipped, so a doubled trailing newline is not an error. Payloads are not
 * parsed here: the caller parses only the item types it keeps, so unknown or dropped types (even
 * non-JSON ones such as attachments) cost nothing and never cause a rejection.
 */
import { fail, isObject, ok, type Result } from "./problem.js";

export interface EnvelopeItem {
  type: string;
  headers: Record<string, unknown>;
  payload: Buffer;
}

export interface Envelope {
  headers: Record<string, unknown>;
  items: EnvelopeItem[];
}

const NL = 0x0a;

function lineEnd(buf: Buffer, from: number): number {
  const i = buf.indexOf(NL, from);
  return i === -1 ? buf.length : i;
}

function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = buf[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

/** Headers are single-line JSON objects; anything else is malformed framing. */
function headerAt(buf: Buffer, start: number, end: number): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(buf.toString("utf8", start, end));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `maxItems` bounds the work one request can cause; real envelopes carry a handful of items. */
export function parseEnvelope(body: Buffer, maxItems = 10_000): Result<Envelope> {
  if (isBlank(body, 0, body.length)) return fail(400, "empty envelope");
  let end = lineEnd(body, 0);
  const headers = headerAt(body, 0, end);
  if (!headers) return fail(400, "invalid envelope header: expected a JSON object on the first line");
  const items: EnvelopeItem[] = [];
  let pos = end + 1;
  while (pos < body.length) {
    end = lineEnd(body, pos);
    if (isBlank(body, pos, end)) {
      pos = end + 1;
      continue;
    }
    const itemHeaders = headerAt(body, pos, end);
    if (!itemHeaders) return fail(400, `invalid item header at byte ${pos}`);
    const type = itemHeaders.type;
    if (typeof type !== "string" || type === "") return fail(400, `item header at byte ${pos} has no type`);
    pos = Math.min(end + 1, body.length);
    let payload: Buffer;
    const length = itemHeaders.length;
    if (length !== undefined && length !== null) {
      if (typeof length !== "number" || !Number.isSafeInteger(length) || length < 0) return fail(400, `item "${type.slice(0, 32)}" has an invalid length`);
      if (pos + length > body.length) return fail(400, `item "${type.slice(0, 32)}" is shorter than its length`);
      payload = body.subarray(pos, pos + length);
      pos += length;
      if (pos < body.length) {
        if (body[pos] !== NL) return fail(400, `item "${type.slice(0, 32)}" is longer than its length`);
        pos += 1;
      }
    } else {
      end = lineEnd(body, pos);
      payload = body.subarray(pos, end);
      pos = end + 1;
    }
    items.push({ type, headers: itemHeaders, payload });
    if (items.length > maxItems) return fail(413, `envelope has more than ${maxItems} items`);
  }
  return ok({ headers, items });
}
