/**
 * Ingestion under hostile load, proved by counting bytes (the decoder's meter), never by timing:
 * envelopes stream (an attachment far past the event limit is never held), a refused key stops the
 * body at its header line, the process decode budget answers 429 instead of allocating, every
 * refusal cause answers byte-identically, and zstd is decoded where the runtime has it.
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from "vitest";
import * as zlib from "node:zlib";
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { budgetInUse, onMeterClosed, type MeterReading } from "../../functions/errortracking/ingest/budget.js";
import { DECODE_CHUNK_BYTES } from "../../functions/errortracking/ingest/decode.js";
import { NOT_ACCEPTING } from "../../functions/errortracking/ingest/pipeline.js";
import { resetIngestLimits } from "../../functions/errortracking/ingest/limits.js";
import { clearLookupCache } from "../../functions/errortracking/ingest/lookup.js";
import { createTarget, drain, inProcessApp, privateQueue, setProjectFeature, type IngestTarget } from "./ingest-support.js";

const MiB = 1024 * 1024;
const EVENT_LIMIT = 1 * MiB;
/** Decoder window and buffers, one decoded chunk, one queue message: what a request holds besides its event. */
const SMALL_CONSTANT = 512 * 1024;

const app = inProcessApp();
let queue: string;
let t: IngestTarget;
let server: ServerType;
let nodeBase: string;

const readings: MeterReading[] = [];
const stopObserving = onMeterClosed((r) => readings.push(r));

beforeAll(async () => {
  queue = await privateQueue();
  t = await createTarget();
  // The same app behind a Node HTTP server on loopback: the collector then reads the Node request stream.
  server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise((r) => server.once("listening", r));
  nodeBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  stopObserving();
  await new Promise((r) => server.close(r));
});

afterEach(() => {
  delete process.env.FORGELINE_INGEST_DECODE_BUDGET_BYTES;
  resetIngestLimits();
});

const envelopePath = (projectId: number | string) => `/api/v4/error_tracking/collector/api/${projectId}/envelope/`;
const dsnOf = (key: string, projectId: number) => `http://${key}@127.0.0.1/api/v4/error_tracking/collector/${projectId}`;

/** A gzip envelope whose attachment (zeros, ~1000:1) inflates to `attachmentBytes`, before or after an event. */
function bombEnvelope(opts: { dsn: string; attachmentBytes: number; eventBytes?: number; eventId?: string }): Promise<Buffer> {
  const header = Buffer.from(`${JSON.stringify({ event_id: opts.eventId, dsn: opts.dsn })}\n`);
  const event = Buffer.from(`${JSON.stringify({ message: "with a large attachment", extra: { pad: "p".repeat(opts.eventBytes ?? 100) } })}`);
  const parts = [header, Buffer.from('{"type":"event"}\n'), event, Buffer.from(`\n{"type":"attachment","length":${opts.attachmentBytes},"filename":"core.dmp"}\n`)];
  const gzip = zlib.createGzip();
  const out: Buffer[] = [];
  gzip.on("data", (c: Buffer) => out.push(c));
  for (const p of parts) gzip.write(p);
  const zeros = Buffer.alloc(MiB);
  for (let left = opts.attachmentBytes; left > 0; left -= zeros.length) gzip.write(left >= zeros.length ? zeros : zeros.subarray(0, left));
  gzip.end("\n");
  return new Promise((resolve) => gzip.on("end", () => resolve(Buffer.concat(out))));
}

/** Sends one request and returns its answer with the reading of the one meter it closed. */
async function lastReading(send: () => Response | Promise<Response>): Promise<{ res: Response; body: unknown; reading: MeterReading }> {
  readings.length = 0;
  const res = await send();
  const text = await res.text();
  expect(readings).toHaveLength(1);
  return { res, body: text.startsWith("{") ? JSON.parse(text) : text, reading: readings[0]! };
}

const transports = {
  "in-process (web stream)": (path: string, init: RequestInit) => app.request(path, init),
  "over HTTP (Node stream)": (path: string, init: RequestInit) => fetch(`${nodeBase}${path}`, init),
};

describe("streaming envelopes", () => {
  for (const [name, send] of Object.entries(transports)) {
    it(`${name}: an attachment inflating to 40 MiB never holds more than the event limit plus a small constant`, async () => {
      const body = await bombEnvelope({ dsn: dsnOf(t.publicKey, t.projectId), attachmentBytes: 40 * MiB, eventBytes: 900 * 1024, eventId: "ab".repeat(16) });
      expect(body.length).toBeLessThan(200 * 1024);
      const answer = await lastReading(() => send(envelopePath(t.projectId), { method: "POST", body, headers: { "Content-Encoding": "gzip" } }));
      const reading = answer.reading;
      expect([answer.res.status, answer.body]).toEqual([200, { id: "ab".repeat(16) }]);
      expect(reading.inflated).toBeGreaterThan(40 * MiB);
      expect(reading.peakHeld).toBeGreaterThan(900 * 1024); // the event itself was held, and counted
      expect(reading.peakHeld).toBeLessThanOrEqual(EVENT_LIMIT + SMALL_CONSTANT);
      expect(budgetInUse()).toBe(0);
      const queued = await drain(queue);
      expect(queued.map((m) => m.eventId)).toEqual(["ab".repeat(16)]);
    });

    it(`${name}: a refused key in the envelope dsn stops decoding at the header line`, async () => {
      const body = await bombEnvelope({ dsn: dsnOf("glet_" + "0".repeat(32), t.projectId), attachmentBytes: 48 * MiB });
      const { res, body: answer, reading } = await lastReading(() => send(envelopePath(t.projectId), { method: "POST", body, headers: { "Content-Encoding": "gzip" } }));
      expect([res.status, answer]).toEqual([404, { detail: NOT_ACCEPTING }]);
      // The header line sits in the decoder's first output chunk; nothing after that chunk was inflated.
      expect(reading.inflated).toBeGreaterThan(0);
      expect(reading.inflated).toBeLessThanOrEqual(DECODE_CHUNK_BYTES);
      expect(budgetInUse()).toBe(0);
      expect(await drain(queue)).toEqual([]);
    });
  }

  it("the Node server still answers the next request on a connection whose body it left unread", async () => {
    const body = await bombEnvelope({ dsn: dsnOf("glet_" + "1".repeat(32), t.projectId), attachmentBytes: 8 * MiB });
    for (let i = 0; i < 3; i++) expect((await fetch(`${nodeBase}${envelopePath(t.projectId)}`, { method: "POST", body, headers: { "Content-Encoding": "gzip" } })).status).toBe(404);
    const ok = await fetch(`${nodeBase}${envelopePath(t.projectId)}?sentry_key=${t.publicKey}`, { method: "POST", body: '{}\n{"type":"event"}\n{"message":"after"}' });
    expect(ok.status).toBe(200);
    expect((await drain(queue)).map((m) => m.payload.message)).toEqual(["after"]);
  });
});

describe("the process decode budget", () => {
  it("answers 429 with Retry-After instead of holding past the budget, and gives every byte back", async () => {
    process.env.FORGELINE_INGEST_DECODE_BUDGET_BYTES = String(256 * 1024);
    resetIngestLimits();
    const big = `{}\n{"type":"event"}\n${JSON.stringify({ message: "m", extra: { pad: "x".repeat(300 * 1024) } })}`;
    const { res, reading } = await lastReading(() => app.request(`${envelopePath(t.projectId)}?sentry_key=${t.publicKey}`, { method: "POST", body: big }));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("x-sentry-error")).toMatch(/busy/);
    expect(reading.peakHeld).toBeLessThanOrEqual(256 * 1024);
    expect(budgetInUse()).toBe(0);
    // A small event still fits, and a compressed one pays its decoder's reservation.
    const small = '{}\n{"type":"event"}\n{"message":"fits"}';
    expect((await app.request(`${envelopePath(t.projectId)}?sentry_key=${t.publicKey}`, { method: "POST", body: small })).status).toBe(200);
    expect((await app.request(`${envelopePath(t.projectId)}?sentry_key=${t.publicKey}`, { method: "POST", body: zlib.gzipSync(small), headers: { "Content-Encoding": "gzip" } })).status).toBe(200);
    expect(budgetInUse()).toBe(0);
    expect((await drain(queue)).map((m) => m.payload.message)).toEqual(["fits", "fits"]);
  });

  it("charges concurrent requests together: with room for about two events at once, some of ten get 429, none holds past it, and it is all given back", async () => {
    process.env.FORGELINE_INGEST_DECODE_BUDGET_BYTES = String(700 * 1024);
    resetIngestLimits();
    readings.length = 0;
    const event = (i: number) => `{}\n{"type":"event"}\n${JSON.stringify({ message: `c${i}`, extra: { pad: "y".repeat(300 * 1024) } })}`;
    // Chunked bodies trickle in, so the requests overlap while each holds its event.
    const trickle = (text: string) =>
      new ReadableStream({
        async pull(c) {
          const bytes = Buffer.from(text);
          for (let i = 0; i < bytes.length; i += 16 * 1024) {
            c.enqueue(bytes.subarray(i, i + 16 * 1024));
            await new Promise((r) => setImmediate(r));
          }
          c.close();
        },
      });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => app.request(`${envelopePath(t.projectId)}?sentry_key=${t.publicKey}`, { method: "POST", body: trickle(event(i)), duplex: "half" } as RequestInit)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses).toContain(429);
    expect(statuses).toContain(200);
    expect(readings).toHaveLength(10);
    expect(Math.max(...readings.map((r) => r.peakHeld))).toBeLessThanOrEqual(700 * 1024);
    expect(budgetInUse()).toBe(0);
    expect((await drain(queue)).length).toBe(statuses.filter((s) => s === 200).length);
  });
});

describe("one answer for every refusal cause", () => {
  it("unknown key, unknown project, tracking disabled and Monitor disabled answer byte-identically", async () => {
    const disabled = await createTarget({ enabled: false });
    const noMonitor = await createTarget();
    await setProjectFeature(noMonitor.projectId, "monitor_access_level", "disabled");
    clearLookupCache();
    const causes: Array<[string, number, string]> = [
      ["unknown key", t.projectId, "glet_" + "2".repeat(32)],
      ["unknown project", 987_654_321, t.publicKey],
      ["tracking disabled", disabled.projectId, disabled.publicKey],
      ["Monitor disabled", noMonitor.projectId, noMonitor.publicKey],
    ];
    const answers: string[] = [];
    // The reason is told only to the debug log, with the request id.
    const logged: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "debug";
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (String(chunk).includes('"ingest refused"')) logged.push(String(chunk));
      return write(chunk, ...(rest as []));
    }) as typeof process.stdout.write;
    try {
      for (const [, projectId, key] of causes) {
        for (const how of ["query", "dsn"] as const) {
          const body = `${JSON.stringify(how === "dsn" ? { dsn: dsnOf(key, projectId) } : {})}\n{"type":"event"}\n{"message":"probe"}`;
          const path = `${envelopePath(projectId)}${how === "query" ? `?sentry_key=${key}` : ""}`;
          const res = await app.request(path, { method: "POST", body, headers: { "X-Request-Id": "probe-request-1" } });
          const headers = [...res.headers].filter(([k]) => k !== "date").sort();
          answers.push(JSON.stringify([res.status, headers, await res.text()]));
        }
      }
    } finally {
      process.stdout.write = write;
      if (level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = level;
    }
    expect(new Set(answers).size).toBe(1);
    const reasons = logged.map((line) => JSON.parse(line) as { requestId: string; reason: string });
    expect(reasons.map((r) => r.reason)).toEqual(["unknown client key", "unknown client key", "no such project", "no such project", "error tracking disabled", "error tracking disabled", "Monitor feature disabled", "Monitor feature disabled"]);
    expect(reasons.every((r) => r.requestId === "probe-request-1")).toBe(true);
    expect(logged.join("")).not.toContain(noMonitor.publicKey);
    expect(JSON.parse(answers[0]!)[0]).toBe(404);
    expect(JSON.parse(JSON.parse(answers[0]!)[2])).toEqual({ detail: NOT_ACCEPTING });
    expect(await drain(queue)).toEqual([]);
  });
});

describe("zstd", () => {
  const zstdCompress = (zlib as unknown as { zstdCompressSync?: (b: Buffer, o?: object) => Buffer }).zstdCompressSync;
  const envelope = '{"event_id":"cd000000000000000000000000000001"}\n{"type":"event"}\n{"exception":{"values":[{"type":"ZstdError","value":"compressed"}]}}\n';

  it(zstdCompress ? "is decoded and the event counted on this runtime (Node ≥ 22.15)" : "is refused with a 415 naming the missing support on this runtime (Node < 22.15)", async () => {
    const res = await app.request(`${envelopePath(t.projectId)}?sentry_key=${t.publicKey}`, {
      method: "POST",
      body: zstdCompress ? zstdCompress(Buffer.from(envelope)) : Buffer.from(envelope),
      headers: { "Content-Encoding": "zstd" },
    });
    if (zstdCompress) {
      expect([res.status, await res.json()]).toEqual([200, { id: "cd000000000000000000000000000001" }]);
      expect((await drain(queue)).map((m) => m.payload.exception.values[0].type)).toEqual(["ZstdError"]);
      // A zstd bomb streams like a gzip one: its declared window is charged, not its size.
      const attachment = Buffer.alloc(24 * MiB);
      const bomb = Buffer.concat([Buffer.from(`${envelope}{"type":"attachment","length":${attachment.length}}\n`), attachment]);
      const streamed = await lastReading(() =>
        app.request(`${envelopePath(t.projectId)}?sentry_key=${t.publicKey}`, { method: "POST", body: zstdCompress(bomb), headers: { "Content-Encoding": "zstd" } }),
      );
      expect(streamed.res.status).toBe(200);
      expect(streamed.reading.inflated).toBe(bomb.length);
      expect(streamed.reading.peakHeld).toBeLessThanOrEqual(8 * MiB + SMALL_CONSTANT);
      await drain(queue);
      // A frame that needs a window over 8 MiB is refused as undecodable instead of allocating it.
      const wide = zstdCompress(Buffer.concat([bomb, Buffer.from(Array.from({ length: 64 }, (_, i) => i))]), { params: { [(zlib.constants as Record<string, number>).ZSTD_c_windowLog!]: 26 } });
      const refused = await app.request(`${envelopePath(t.projectId)}?sentry_key=${t.publicKey}`, { method: "POST", body: wide, headers: { "Content-Encoding": "zstd" } });
      expect([refused.status, refused.headers.get("x-sentry-error")]).toEqual([400, "failed to decode zstd payload"]);
      expect(budgetInUse()).toBe(0);
    } else {
      expect(res.status).toBe(415);
      expect(res.headers.get("x-sentry-error")).toMatch(/zstd needs Node\.js 22\.15 or later/);
      expect(await drain(queue)).toEqual([]);
    }
  });
});
