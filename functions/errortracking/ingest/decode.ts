/**
 * Request bodies: bounded reading and `Content-Encoding` decoding.
 *
 * Every decoder runs with zlib's `maxOutputLength`, so a decompression bomb stops at the limit (413)
 * instead of filling memory. An absent, empty (sentry-ruby sends `Content-Encoding: `) or `identity`
 * header means the body is used as sent: compression is never guessed from the bytes here (a server
 * that assumed gzip broke uncompressed SDKs, `sentry-protocol.md` C.10). Raven's base64(zlib) store
 * bodies carry no header and are recognised by the store parser instead.
 */
import * as zlib from "node:zlib";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { fail, ok, type Result } from "./problem.js";

type Decoder = (buf: Buffer, opts: zlib.ZlibOptions) => Promise<Buffer>;

const gunzip = promisify(zlib.gunzip) as Decoder;
const inflate = promisify(zlib.inflate) as Decoder;
const inflateRaw = promisify(zlib.inflateRaw) as Decoder;
const brotli = promisify(zlib.brotliDecompress) as unknown as Decoder;

/** RFC 9110 `deflate` is the zlib wrapper; some clients send raw deflate, so that is tried second. */
const deflate: Decoder = async (buf, opts) => {
  try {
    return await inflate(buf, opts);
  } catch (err) {
    if (tooLarge(err)) throw err;
    return inflateRaw(buf, opts);
  }
};

const decoders: Record<string, Decoder> = { gzip: gunzip, "x-gzip": gunzip, deflate, br: brotli };
// zstd (Relay accepts it) ships in node:zlib from Node 22.15; detected so a runtime upgrade enables it.
const zstd = (zlib as unknown as Record<string, unknown>).zstdDecompress;
if (typeof zstd === "function") decoders.zstd = promisify(zstd as typeof zlib.inflate) as Decoder;

function tooLarge(err: unknown): boolean {
  return err instanceof RangeError || (err as { code?: string } | null)?.code === "ERR_BUFFER_TOO_LARGE";
}

/** Inflates one zlib/gzip stream to at most `max` bytes (also used for raven's base64 bodies). */
export async function inflateBounded(buf: Buffer, coding: "gzip" | "deflate", max: number): Promise<Result<Buffer>> {
  try {
    return ok(await decoders[coding]!(buf, { maxOutputLength: Math.max(1, max) }));
  } catch (err) {
    if (tooLarge(err)) return fail(413, `decompressed body exceeds ${max} bytes`);
    return fail(400, `failed to decode ${coding} payload`);
  }
}

/** Decodes per `Content-Encoding` (a comma list is applied last-first), to at most `max` bytes. */
export async function decodeBody(raw: Buffer, contentEncoding: string | undefined, max: number): Promise<Result<Buffer>> {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "" && s !== "identity");
  if (codings.length > 2) return fail(415, "too many Content-Encoding layers");
  let body = raw;
  for (const coding of codings.reverse()) {
    const decode = decoders[coding];
    if (!decode) return fail(415, `unsupported Content-Encoding: ${coding.slice(0, 32)}`);
    try {
      body = await decode(body, { maxOutputLength: Math.max(1, max) });
    } catch (err) {
      if (tooLarge(err)) return fail(413, `decompressed body exceeds ${max} bytes`);
      return fail(400, `failed to decode ${coding} payload`);
    }
  }
  if (body.length > max) return fail(413, `body exceeds ${max} bytes`);
  return ok(body);
}

/**
 * Reads a request body, stopping (413) as soon as it passes `max` bytes, so an oversized or endless
 * chunked upload (the Node SDK sends `Transfer-Encoding: chunked`) is never buffered whole.
 */
export async function readBounded(req: Request, max: number): Promise<Result<Buffer>> {
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) return fail(413, `request body exceeds ${max} bytes`);
  if (!req.body) return ok(Buffer.alloc(0));
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = req.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => undefined);
        return fail(413, `request body exceeds ${max} bytes`);
      }
      chunks.push(value);
    }
  } catch {
    return fail(400, "failed to read request body");
  }
  return ok(chunks.length === 1 ? Buffer.from(chunks[0]!.buffer, chunks[0]!.byteOffset, chunks[0]!.byteLength) : Buffer.concat(chunks));
}

/**
 * The same, straight from a Node stream: on the local server (`@hono/node-server`) reading the
 * IncomingMessage skips building a web `Request` and its stream, the largest per-request cost left.
 */
export async function readBoundedNode(stream: Readable, declaredLength: number, max: number): Promise<Result<Buffer>> {
  if (declaredLength > max) return fail(413, `request body exceeds ${max} bytes`);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      total += buf.length;
      if (total > max) {
        stream.destroy();
        return fail(413, `request body exceeds ${max} bytes`);
      }
      chunks.push(buf);
    }
  } catch {
    return fail(400, "failed to read request body");
  }
  return ok(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
}
