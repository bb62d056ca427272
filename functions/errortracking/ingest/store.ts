/**
 * The legacy `store` endpoint body: one event, as JSON (sentry-python, sentry-go, raven with
 * `encoding: json`) or as raven's base64(zlib(JSON)) sent as `application/octet-stream` with no
 * Content-Encoding (raven-ruby always, raven-go above 1000 bytes; `sentry-protocol.md` E.2, E.6).
 * The form is recognised from the bytes, since raven sets no header that says so. Raw zlib or gzip
 * bytes without a header are accepted the same way (cheap, and some homegrown clients send them).
 */
import { inflateBounded } from "./decode.js";
import { fail, isObject, ok, type Result } from "./problem.js";

const BASE64 = /^[A-Za-z0-9+/=_\-\s]+$/;

function firstNonSpace(buf: Buffer): number | undefined {
  for (const b of buf) if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return b;
  return undefined;
}

const isZlib = (b: Buffer) => b.length >= 2 && b[0] === 0x78 && ((b[0] << 8) | b[1]!) % 31 === 0;
const isGzip = (b: Buffer) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

export function parseJsonObject(buf: Buffer, what: string): Result<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(buf.toString("utf8"));
    return isObject(value) ? ok(value) : fail(400, `${what} is not a JSON object`);
  } catch {
    return fail(400, `${what} is not valid JSON`);
  }
}

async function inflateAny(buf: Buffer, max: number): Promise<Result<Buffer> | undefined> {
  if (isZlib(buf)) return inflateBounded(buf, "deflate", max);
  if (isGzip(buf)) return inflateBounded(buf, "gzip", max);
  return undefined;
}

/** Parses a (Content-Encoding-decoded) store body into the event object, within `maxEventBytes`. */
export async function parseStoreBody(body: Buffer, maxEventBytes: number): Promise<Result<Record<string, unknown>>> {
  const first = firstNonSpace(body);
  if (first === undefined) return fail(400, "empty store body");
  if (first === 0x7b /* { */) return parseJsonObject(body, "store body");
  const raw = await inflateAny(body, maxEventBytes);
  if (raw) return raw.ok ? parseJsonObject(raw.value, "decompressed store body") : raw;
  // A base64 body is 4/3 of its content; checking the text first avoids decoding binary junk.
  if (!BASE64.test(body.toString("latin1"))) return fail(400, "store body is neither JSON nor base64(zlib(JSON))");
  const decoded = Buffer.from(body.toString("latin1"), "base64");
  const inflated = await inflateAny(decoded, maxEventBytes);
  if (inflated) return inflated.ok ? parseJsonObject(inflated.value, "decompressed store body") : inflated;
  if (firstNonSpace(decoded) === 0x7b) return parseJsonObject(decoded, "base64 store body");
  return fail(400, "store body is neither JSON nor base64(zlib(JSON))");
}
