/**
 * Property tests (fast-check): thousands of mutated and random bodies through the parsers and the
 * whole handler. Parsers must return typed results, never throw; the handler must never answer 5xx;
 * whatever is accepted must become contract-valid queue messages under MAX_MESSAGE_BYTES.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import fc from "fast-check";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { parseEnvelope } from "../../functions/errortracking/ingest/envelope.js";
import { decodeBody } from "../../functions/errortracking/ingest/decode.js";
import { buildMessages, parseEnvelopeBody, parseStore } from "../../functions/errortracking/ingest/messages.js";
import { ingestLimits, resetIngestLimits } from "../../functions/errortracking/ingest/limits.js";
import { ingestMessageSchema, MAX_MESSAGE_BYTES } from "../../functions/errortracking/domain/contracts.js";
import { createTarget, drain, inProcessApp, loadFixtures, privateQueue, rewrite, type IngestTarget } from "./ingest-support.js";

const fixtures = loadFixtures();
const seeds = fixtures.map((f) => f.decoded);
const ctx = { projectId: 1, keyId: 1, receivedAt: "2026-11-21T00:00:00Z" };
const REJECTIONS = new Set([400, 401, 403, 404, 413, 415, 429]);

/** Byte-level mutations: flips, truncation, insertions (incl. newlines), deletions, duplication. */
const mutation = fc.oneof(
  fc.record({ op: fc.constant("flip" as const), at: fc.nat(), bits: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 16 }) }),
  fc.record({ op: fc.constant("newline" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat(), len: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ op: fc.constant("dup" as const), at: fc.nat(), len: fc.integer({ min: 1, max: 256 }) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(base: Buffer, ops: Mutation[]): Buffer {
  let b = base;
  for (const m of ops) {
    const at = b.length ? m.at % (b.length + 1) : 0;
    if (m.op === "flip" && b.length) {
      b = Buffer.from(b);
      b[at % b.length] = b[at % b.length]! ^ m.bits;
    } else if (m.op === "truncate") b = b.subarray(0, at);
    else if (m.op === "insert") b = Buffer.concat([b.subarray(0, at), m.bytes, b.subarray(at)]);
    else if (m.op === "newline") b = Buffer.concat([b.subarray(0, at), Buffer.from("\n"), b.subarray(at)]);
    else if (m.op === "delete") b = Buffer.concat([b.subarray(0, at), b.subarray(at + m.len)]);
    else if (m.op === "dup") b = Buffer.concat([b.subarray(0, at + m.len), b.subarray(at)]);
  }
  return b;
}

const mutatedSeed = fc.tuple(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 6 })).map(([b, ops]) => mutate(b, ops));

/** Envelopes with random headers, random (often wrong) lengths and random JSON payloads. */
const randomEnvelope = fc
  .tuple(
    fc.jsonValue(),
    fc.array(
      fc.record({
        type: fc.oneof(fc.constantFrom("event", "session", "sessions", "transaction", "attachment", "client_report", "x-unknown", ""), fc.string({ unit: "binary", maxLength: 12 })),
        payload: fc.oneof(fc.json(), fc.string(), fc.constant('{"message":"m"}'), fc.constant('{"exception":[{"type":"T"}]}')),
        length: fc.option(fc.integer({ min: -2, max: 200 })),
      }),
      { maxLength: 5 },
    ),
    fc.boolean(),
  )
  .map(([header, items, trailing]) => {
    const parts = [JSON.stringify(header ?? {})];
    for (const it of items) {
      const exact = Buffer.byteLength(it.payload);
      parts.push(JSON.stringify({ type: it.type, ...(it.length === null ? {} : { length: it.length < 0 ? exact : it.length }) }), it.payload);
    }
    return Buffer.from(parts.join("\n") + (trailing ? "\n" : ""));
  });

const anyBody = fc.oneof(mutatedSeed, randomEnvelope, fc.uint8Array({ maxLength: 512 }).map((u) => Buffer.from(u)), fc.json().map((j) => Buffer.from(j)));

function checkBuilt(units: Parameters<typeof buildMessages>[0]) {
  for (const body of buildMessages(units, ctx)) {
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(ingestMessageSchema.safeParse(JSON.parse(body)).success).toBe(true);
  }
}

describe("parser properties", () => {
  const limits = ingestLimits();

  it("envelope parsing returns a typed result for any bytes and accepted units build valid messages", () => {
    fc.assert(
      fc.property(anyBody, (body) => {
        const framed = parseEnvelope(body);
        expect(typeof framed.ok).toBe("boolean");
        const parsed = parseEnvelopeBody(body, limits);
        if (parsed.ok) checkBuilt(parsed.value.units);
        else expect(REJECTIONS.has(parsed.error.status)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("store parsing returns a typed result for any bytes, including broken base64/zlib", async () => {
    const ravenish = fc.oneof(anyBody, anyBody.map((b) => Buffer.from(deflateSync(b).toString("base64"))), mutatedSeed.map((b) => Buffer.from(mutate(Buffer.from(deflateSync(b).toString("base64")), [{ op: "flip", at: 40, bits: 7 }]))));
    await fc.assert(
      fc.asyncProperty(ravenish, async (body) => {
        const parsed = await parseStore(body, limits);
        if (parsed.ok) checkBuilt(parsed.value.units);
        else expect(REJECTIONS.has(parsed.error.status)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("decoding never throws, whatever the header and bytes", async () => {
    await fc.assert(
      fc.asyncProperty(anyBody, fc.constantFrom("gzip", "deflate", "br", "", "identity", "zstd", "gzip, br", "x-gzip", "bogus", "gzip,gzip,gzip"), async (body, coding) => {
        const r = await decodeBody(body, coding, 64 * 1024);
        if (!r.ok) expect(REJECTIONS.has(r.error.status)).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });
});

describe("handler properties", () => {
  const app = inProcessApp();
  let t: IngestTarget;
  let queue: string;

  beforeAll(async () => {
    process.env.FORGELINE_INGEST_RATE_PER_SECOND = "0";
    resetIngestLimits();
    queue = await privateQueue();
    t = await createTarget();
  });
  afterAll(() => {
    delete process.env.FORGELINE_INGEST_RATE_PER_SECOND;
    resetIngestLimits();
  });

  it("never answers 5xx for random project ids, query strings and auth headers", async () => {
    const body = '{}\n{"type":"event"}\n{"message":"m"}';
    const segment = fc.oneof(fc.string({ maxLength: 40 }).map(encodeURIComponent), fc.constantFrom("%ZZ", "0", "-1", "99999999999999999999", "..%2F..", "a%2F%2Fb"), fc.constant(String(t.projectId)));
    const key = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom(t.publicKey, "", "%ZZ", "k".repeat(3000)));
    await fc.assert(
      fc.asyncProperty(segment, key, fc.string({ maxLength: 80 }), fc.boolean(), async (project, k, auth, inHeader) => {
        const query = inHeader ? "" : `?sentry_key=${k.startsWith("%") ? k : encodeURIComponent(k)}`;
        const headers: Record<string, string> = inHeader ? { "X-Sentry-Auth": `Sentry sentry_key=${k.replace(/[^\x20-\x7e]/g, "")}, ${auth.replace(/[^\x20-\x7e]/g, "")}` } : {};
        const res = await app.request(`/api/v4/error_tracking/collector/api/${project}/envelope/${query}`, { method: "POST", headers, body });
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 500 },
    );
    await drain(queue);
  });

  it("never answers 5xx or throws for mutated SDK requests with random encodings and types", async () => {
    const compress: Record<string, (b: Buffer) => Buffer> = { gzip: (b) => gzipSync(b), deflate: (b) => deflateSync(b), br: (b) => brotliCompressSync(b) };
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fixtures),
        fc.oneof(fc.array(mutation, { maxLength: 4 }), randomEnvelope),
        fc.constantFrom("gzip", "deflate", "br", "", "identity", "zstd", undefined, "garbage"),
        fc.boolean(),
        fc.constantFrom(undefined, "application/json", "text/plain", "application/x-sentry-envelope", "application/octet-stream", "image/png"),
        async (f, ops, coding, compressFirst, type) => {
          const { url, init } = rewrite(f, t);
          const headers = { ...(init.headers as Record<string, string>) };
          for (const k of Object.keys(headers)) if (/^content-(encoding|type)$/i.test(k)) delete headers[k];
          // Either the capture mutated, or a random envelope sent with the capture's URL and headers.
          let body = Buffer.isBuffer(ops) ? ops : mutate(f.decoded, ops);
          // Sometimes a truthful Content-Encoding, sometimes a lying one, then maybe mutate the wire bytes.
          if (coding && compressFirst && compress[coding]) body = compress[coding](body);
          if (coding !== undefined) headers["Content-Encoding"] = coding;
          if (type) headers["Content-Type"] = type;
          const res = await app.request(url, { method: "POST", headers, body });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status).toBeLessThan(500);
          const json = (await res.json()) as { id?: string; detail?: string };
          if (res.status === 200) expect(json.id).toMatch(/^[0-9a-f]{32}$/);
          else expect(res.headers.get("x-sentry-error")).toBe(json.detail);
        },
      ),
      { numRuns: 1500 },
    );
    // The mix must exercise both sides: plenty accepted and plenty rejected.
    expect(statuses.get(200)).toBeGreaterThan(50);
    expect([...statuses.keys()].filter((s) => s !== 200).length).toBeGreaterThan(1);
    for (const m of await drain(queue)) expect(ingestMessageSchema.safeParse(m).success).toBe(true);
  });
});
