/**
 * Request bodies as streams: bounded reading and `Content-Encoding` decoding, chunk by chunk.
 *
 * Nothing here holds a whole body. The reader counts bytes as sent and stops at the request limit
 * (413); the decoders inflate into 16 KiB chunks the caller consumes one at a time, and stop at the
 * decompressed limit (413), so a decompression bomb costs its decoder's window, not its size. Each
 * decoder's window and buffers are charged to the process decode budget (`budget.ts`) before it
 * runs: zlib's 32 KiB, brotli's and zstd's as their stream header declares (zstd is capped at 8 MiB).
 *
 * An absent, empty (sentry-ruby sends `Content-Encoding: `) or `identity` header means the body is
 * used as sent: compression is never guessed from the bytes here (a server that assumed gzip broke
 * uncompressed SDKs, `sentry-protocol.md` C.10). Raven's base64(zlib) store bodies carry no header
 * and are recognised by the store parser instead.
 */
import * as zlib from "node:zlib";
import { Readable, pipeline, type Transform } from "node:stream";
import { Meter } from "./budget.js";
import { fail, ok, Refusal, refuse, type Result } from "./problem.js";

export type Chunks = AsyncIterable<Buffer>;

const KiB = 1024;
const MiB = 1024 * KiB;
/** Output chunk and stream buffer size: what one request keeps in flight between decoder and parser. */
export const DECODE_CHUNK_BYTES = 16 * KiB;
/** zlib's 32 KiB window, its state, and the stream buffers on either side of it. */
const ZLIB_RESERVE = 96 * KiB;
/** Largest zstd window accepted (zstd's `windowLogMax`); larger frames are refused as undecodable. */
const ZSTD_WINDOW_LOG_MAX = 23;
/** Brotli's largest standard window is 16 MiB (RFC 7932); the large-window extension is not accepted. */
const BROTLI_MAX_WINDOW = 16 * MiB;

const zlibExt = zlib as unknown as Record<string, unknown> & { constants: Record<string, number> };
// zstd (Relay accepts it) ships in node:zlib from Node 22.15, the deploy runtime; detected at run time.
const createZstd = typeof zlibExt.createZstdDecompress === "function" ? (zlibExt.createZstdDecompress as (o: object) => Transform) : undefined;

const streamOpts = { chunkSize: DECODE_CHUNK_BYTES, readableHighWaterMark: DECODE_CHUNK_BYTES, writableHighWaterMark: DECODE_CHUNK_BYTES };

/** RFC 7932 §9.1: the window bits in a brotli stream's first bits; undefined for the large-window form. */
function brotliWindow(head: Buffer): number | undefined {
  const b = head[0];
  if (b === undefined) return undefined;
  if ((b & 1) === 0) return (1 << 16) - 16;
  const n = (b >> 1) & 7;
  if (n !== 0) return (1 << (17 + n)) - 16;
  const m = (b >> 4) & 7;
  if (m === 1) return undefined;
  return (1 << (m === 0 ? 17 : 8 + m)) - 16;
}

/** RFC 8878 §3.1.1.1: the first frame's window (or content size, for a single-segment frame). */
function zstdWindow(head: Buffer): number | undefined {
  if (head.length < 6 || head.readUInt32LE(0) !== 0xfd2fb528) return undefined;
  const fhd = head[4]!;
  if (((fhd >> 5) & 1) === 0) {
    const wd = head[5]!;
    const base = 2 ** (10 + (wd >> 3));
    return base + (base / 8) * (wd & 7);
  }
  const at = 5 + [0, 1, 2, 4][fhd & 3]!;
  const size = [1, 2, 4, 8][fhd >> 6]!;
  if (head.length < at + size) return undefined;
  const fcs = size === 8 ? Number(head.readBigUInt64LE(at)) : head.readUIntLE(at, size) + (size === 2 ? 256 : 0);
  return fcs;
}

interface Decoder {
  /** `head`: the stream's first bytes when this is the outermost layer. */
  create(head: Buffer | undefined): Transform;
  /** Bytes to charge before decoding, from the stream's first bytes when they say (outermost layer only). */
  reserve(head: Buffer | undefined): number;
}

const zlibDecoder = (create: Decoder["create"]): Decoder => ({ create, reserve: () => ZLIB_RESERVE });
const isZlibHeader = (b: Buffer) => b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0;

const decoders: Record<string, Decoder> = {
  gzip: zlibDecoder(() => zlib.createGunzip(streamOpts)),
  "x-gzip": zlibDecoder(() => zlib.createGunzip(streamOpts)),
  // RFC 9110 `deflate` is the zlib wrapper; some clients send raw deflate, recognised by its missing header.
  deflate: zlibDecoder((head) => (head && !isZlibHeader(head) ? zlib.createInflateRaw(streamOpts) : zlib.createInflate(streamOpts))),
  br: {
    create: () => zlib.createBrotliDecompress(streamOpts),
    reserve: (head) => ZLIB_RESERVE + Math.min(BROTLI_MAX_WINDOW, (head && brotliWindow(head)) ?? BROTLI_MAX_WINDOW),
  },
};
if (createZstd) {
  decoders.zstd = {
    create: () => createZstd({ ...streamOpts, params: { [zlibExt.constants.ZSTD_d_windowLogMax!]: ZSTD_WINDOW_LOG_MAX } }),
    reserve: (head) => ZLIB_RESERVE + Math.min(2 ** ZSTD_WINDOW_LOG_MAX, (head && zstdWindow(head)) ?? Infinity),
  };
}

/** The codings to undo, first to last (a comma list was applied left to right). */
export function parseCodings(contentEncoding: string | undefined): Result<string[]> {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "" && s !== "identity");
  if (codings.length > 2) return fail(415, "too many Content-Encoding layers");
  for (const coding of codings) {
    if (decoders[coding]) continue;
    if (coding === "zstd") return fail(415, `unsupported Content-Encoding: zstd needs Node.js 22.15 or later, this runtime is ${process.version}`);
    return fail(415, `unsupported Content-Encoding: ${coding.slice(0, 32)}`);
  }
  return ok(codings.reverse());
}

/**
 * Raw chunks from a Node stream (the local server's request), stopping (413) past `max` bytes.
 * Leaving the loop early does not destroy the stream: the HTTP server discards the rest of the
 * upload without decoding it and the response still reaches the client; only an over-limit upload is
 * cut off.
 */
export async function* nodeChunks(stream: Readable, max: number, meter: Meter): Chunks {
  const it = stream.iterator({ destroyOnReturn: false });
  let done = false;
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await it.next();
      } catch {
        throw refuse(400, "failed to read request body");
      }
      if (next.done) return void (done = true);
      const chunk = next.value as Buffer;
      meter.read += chunk.length;
      if (meter.read > max) {
        stream.destroy();
        throw refuse(413, `request body exceeds ${max} bytes`);
      }
      yield chunk;
    }
  } finally {
    // Left early (a refused key, a bad item): the rest is read off the connection and discarded.
    if (!done && !stream.destroyed) {
      await it.return?.();
      stream.resume();
    }
  }
}

/** The same for a web `Request` body (Lambda function URL events, chunked uploads in tests). */
export async function* webChunks(body: ReadableStream<Uint8Array> | null, max: number, meter: Meter): Chunks {
  if (!body) return;
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch {
        throw refuse(400, "failed to read request body");
      }
      if (next.done) return void (done = true);
      meter.read += next.value.byteLength;
      if (meter.read > max) throw refuse(413, `request body exceeds ${max} bytes`);
      yield Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
  }
}

/**
 * Decoded chunks of `raw` (codings from `parseCodings`), at most `max` bytes in all (413). The
 * decoders' reservations are charged to `meter` (429 when the budget is spent) and stay charged
 * until the meter closes.
 */
export async function* decodeChunks(raw: Chunks, codings: string[], max: number, meter: Meter): Chunks {
  const tooMuch = () => refuse(413, codings.length ? `decompressed body exceeds ${max} bytes` : `body exceeds ${max} bytes`);
  if (codings.length === 0) {
    for await (const chunk of raw) {
      meter.inflated += chunk.length;
      if (meter.inflated > max) throw tooMuch();
      yield chunk;
    }
    return;
  }
  const source = raw[Symbol.asyncIterator]();
  const first = await source.next();
  if (first.done) throw refuse(400, `failed to decode ${codings[0]} payload`);
  codings.forEach((coding, i) => meter.hold(decoders[coding]!.reserve(i === 0 ? first.value : undefined)));
  async function* all() {
    yield first.value as Buffer;
    for (let next = await source.next(); !next.done; next = await source.next()) yield next.value as Buffer;
  }
  const streams = [Readable.from(all(), { objectMode: false, highWaterMark: DECODE_CHUNK_BYTES }), ...codings.map((c, i) => decoders[c]!.create(i === 0 ? first.value : undefined))];
  const out = pipeline(streams as unknown as [Readable, Transform], () => undefined) as unknown as Readable;
  try {
    for await (const chunk of out) {
      meter.inflated += (chunk as Buffer).length;
      if (meter.inflated > max) throw tooMuch();
      yield chunk as Buffer;
    }
  } catch (err) {
    if (err instanceof Refusal) throw err;
    throw refuse(400, `failed to decode ${codings.join(", ")} payload`);
  } finally {
    out.destroy();
    // Not awaited: a slow client may never send the next chunk this would wait for.
    source.return?.().catch(() => undefined);
  }
}

/** Collects decoded chunks, at most `max` bytes (the caller's `decodeChunks` limit), charging them. */
export async function collect(chunks: Chunks, meter: Meter): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) {
    meter.hold(chunk.length);
    parts.push(chunk);
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** A body already in memory, decoded per `Content-Encoding` to at most `max` bytes (parsers, tests). */
export async function decodeBody(raw: Buffer, contentEncoding: string | undefined, max: number): Promise<Result<Buffer>> {
  const codings = parseCodings(contentEncoding);
  if (!codings.ok) return codings;
  const meter = new Meter(false);
  try {
    return ok(await collect(decodeChunks(inMemory(raw), codings.value, max, meter), meter));
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, error: err.failure };
    throw err;
  } finally {
    meter.close();
  }
}

/** Inflates one zlib/gzip stream to at most `max` bytes (raven's base64 store bodies). */
export const inflateBounded = (buf: Buffer, coding: "gzip" | "deflate", max: number) => decodeBody(buf, coding, max);

async function* inMemory(buf: Buffer): Chunks {
  if (buf.length > 0) yield buf;
}
