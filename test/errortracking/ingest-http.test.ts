/** The collector's HTTP behaviour in-process, observed on a private queue: formats, limits, failures. */
import { describe, it, expect, beforeAll, afterEach } from "vitest";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { MAX_MESSAGE_BYTES } from "../../functions/errortracking/domain/contracts.js";
import { ingestLimits, resetIngestLimits } from "../../functions/errortracking/ingest/limits.js";
import { clearLookupCache } from "../../functions/errortracking/ingest/lookup.js";
import type { Context } from "aws-lambda";
import { handler } from "../../functions/errortracking/ingest/collector.js";
import { drain, createTarget, inProcessApp, privateQueue, type IngestTarget } from "./ingest-support.js";

const app = inProcessApp();
let queue: string;
let t: IngestTarget;
const base = () => `/api/v4/error_tracking/collector/api/${t.projectId}`;
const post = (path: string, body: RequestInit["body"], headers: Record<string, string> = {}) =>
  app.request(path, { method: "POST", body, headers: { "X-Sentry-Auth": `Sentry sentry_key=${t.publicKey}, sentry_version=7`, ...headers } });
const storeEvent = JSON.stringify({ event_id: "5bd6c1a4b4e54c4f9b0a5e1f0c2d3e4f", exception: [{ type: "E", value: "v" }] });
const envelope = '{"event_id":"7c9e6679742545f5b4c3d2e1f0a9b8c7"}\n{"type":"event"}\n{"message":"m"}\n';

beforeAll(async () => {
  queue = await privateQueue();
  t = await createTarget();
});

afterEach(() => {
  for (const k of Object.keys(process.env)) if (k.startsWith("FORGELINE_INGEST_")) delete process.env[k];
  resetIngestLimits();
});

describe("routes and formats", () => {
  it("serves store and envelope with and without the trailing slash", async () => {
    for (const path of [`${base()}/store`, `${base()}/store/`]) expect((await post(path, storeEvent)).status).toBe(200);
    for (const path of [`${base()}/envelope`, `${base()}/envelope/`]) expect((await post(path, envelope)).status).toBe(200);
    const queued = await drain(queue);
    expect(queued.map((m) => m.kind)).toEqual(["event", "event", "event", "event"]);
    expect(queued[0].payload.exception).toEqual({ values: [{ type: "E", value: "v" }] });
  });

  it("answers 200 {id} with the SDK's event id", async () => {
    const res = await post(`${base()}/store/`, storeEvent);
    expect(await res.json()).toEqual({ id: "5bd6c1a4b4e54c4f9b0a5e1f0c2d3e4f" });
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    await drain(queue);
  });

  it("accepts every content type SDKs use and refuses others with 415", async () => {
    for (const type of ["application/x-sentry-envelope", "application/json", "text/plain;charset=UTF-8", "application/octet-stream", "application/x-www-form-urlencoded"]) {
      expect((await post(`${base()}/envelope/`, envelope, { "Content-Type": type })).status).toBe(200);
    }
    expect((await post(`${base()}/envelope/`, envelope, { "Content-Type": "application/gzip" })).status).toBe(415);
    expect((await drain(queue)).length).toBe(5);
  });

  it("decodes gzip, deflate, br and an empty Content-Encoding; refuses unknown ones with 415", async () => {
    const variants: Array<[string, Uint8Array | string]> = [["gzip", gzipSync(envelope)], ["deflate", deflateSync(envelope)], ["br", brotliCompressSync(envelope)], ["", envelope]];
    for (const [coding, body] of variants) expect((await post(`${base()}/envelope/`, body as RequestInit["body"], { "Content-Encoding": coding })).status).toBe(200);
    expect((await post(`${base()}/envelope/`, envelope, { "Content-Encoding": "compress" })).status).toBe(415);
    expect((await drain(queue)).length).toBe(4);
  });

  it("queues every event and session of a multi-item envelope and drops the rest with 200", async () => {
    const body = [
      '{"event_id":"0123456789abcdef0123456789abcdef","sent_at":"2026-11-21T05:14:15Z"}',
      '{"type":"event","content_type":"application/json"}',
      '{"exception":{"values":[{"type":"TypeError","value":"x"}]}}',
      '{"type":"session"}',
      '{"sid":"s1","status":"ok","errors":1,"attrs":{"release":"r"}}',
      '{"type":"sessions"}',
      '{"attrs":{"release":"r"},"aggregates":[{"started":"2026-11-21T05:14:00Z","exited":1}]}',
      '{"type":"attachment","length":3,"filename":"a.bin"}',
      "\u0000\u0001\u0002",
      '{"type":"client_report"}',
      '{"discarded_events":[]}',
      '{"type":"profile_chunk"}',
      "{}",
    ].join("\n");
    const res = await post(`${base()}/envelope/`, body);
    expect([res.status, await res.json()]).toEqual([200, { id: "0123456789abcdef0123456789abcdef" }]);
    const queued = await drain(queue);
    expect(queued.map((m) => m.kind).sort()).toEqual(["event", "session", "session"]);
    expect(queued.find((m) => m.kind === "event").eventId).toBe("0123456789abcdef0123456789abcdef");
    const dropOnly = await post(`${base()}/envelope/`, '{}\n{"type":"transaction"}\n{"spans":[]}\n{"type":"client_report"}\n{}');
    expect(dropOnly.status).toBe(200);
    expect(((await dropOnly.json()) as { id: string }).id).toMatch(/^[0-9a-f]{32}$/);
    expect(await drain(queue)).toEqual([]);
  });

  it("answers 400 with X-Sentry-Error for malformed bodies", async () => {
    for (const [path, body] of [[`${base()}/envelope/`, "not an envelope"], [`${base()}/envelope/`, ""], [`${base()}/store/`, "{oops"], [`${base()}/store/`, "[1]"], [`${base()}/envelope/`, '{}\n{"type":"event","length":99}\n{}']] as const) {
      const res = await post(path, body);
      expect(res.status).toBe(400);
      expect(res.headers.get("x-sentry-error")).toBeTruthy();
      expect(((await res.json()) as { detail: string }).detail).toBe(res.headers.get("x-sentry-error"));
    }
  });

  it("keeps X-Sentry-Error a valid header when the reason quotes client text", async () => {
    const res = await post(`${base()}/envelope/`, '{}\n{"type":"évé\\nnement\\u0000","length":-5}\n{}');
    expect(res.status).toBe(400);
    expect(res.headers.get("x-sentry-error")).toMatch(/^[\x20-\x7e]+$/);
  });

  it("answers CORS preflights", async () => {
    const res = await app.request(`${base()}/envelope/`, { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toMatch(/x-sentry-auth/);
  });

  it("trims an event too big for one queue message instead of rejecting it", async () => {
    const big = { event_id: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", exception: { values: [{ type: "Big", value: "v" }] }, breadcrumbs: { values: Array.from({ length: 900 }, (_, i) => ({ message: `${i}`.padEnd(900, "b") })) } };
    expect((await post(`${base()}/store/`, JSON.stringify(big))).status).toBe(200);
    const [msg] = await drain(queue);
    expect(JSON.stringify(msg).length).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(msg.payload.exception.values[0].type).toBe("Big");
  });
});

describe("limits", () => {
  it("defaults to 1 MiB per event and 20 MiB per request", () => {
    expect(ingestLimits()).toMatchObject({ maxEventBytes: 1024 * 1024, maxRequestBytes: 20 * 1024 * 1024 });
  });

  it("answers 413 over the event size, compressed or not, on both endpoints", async () => {
    const huge = JSON.stringify({ message: "x".repeat(1024 * 1024 + 10) });
    expect((await post(`${base()}/store/`, huge)).status).toBe(413);
    const gz = await post(`${base()}/store/`, gzipSync(huge), { "Content-Encoding": "gzip" });
    expect([gz.status, gz.headers.get("x-sentry-error")]).toEqual([413, expect.stringMatching(/exceeds/)]);
    expect((await post(`${base()}/envelope/`, `{}\n{"type":"event"}\n${huge}`)).status).toBe(413);
    expect((await post(`${base()}/envelope/`, gzipSync(`{}\n{"type":"event"}\n${huge}`), { "Content-Encoding": "gzip" })).status).toBe(413);
    expect(await drain(queue)).toEqual([]);
  });

  it("answers 413 over the configured request size, before decompressing", async () => {
    process.env.FORGELINE_INGEST_MAX_REQUEST_BYTES = "1000";
    resetIngestLimits();
    const body = `{}\n{"type":"attachment"}\n${"a".repeat(2000)}`;
    expect((await post(`${base()}/envelope/`, body)).status).toBe(413);
    // A chunked body (no Content-Length) is cut off while streaming.
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(body)), c.close()) });
    expect((await app.request(`${base()}/envelope/?sentry_key=${t.publicKey}`, { method: "POST", body: stream, duplex: "half" } as RequestInit)).status).toBe(413);
  });

  it("answers 429 with Retry-After and X-Sentry-Rate-Limits over the per-key rate", async () => {
    process.env.FORGELINE_INGEST_RATE_PER_SECOND = "1";
    process.env.FORGELINE_INGEST_RATE_BURST = "3";
    resetIngestLimits();
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await post(`${base()}/envelope/`, envelope);
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(limited!.headers.get("retry-after")).toBe("1");
    expect(limited!.headers.get("x-sentry-rate-limits")).toBe("1::key");
    expect((await drain(queue)).length).toBe(3);
  });
});

describe("dependency failures", () => {
  it("answers 503 with Retry-After when DynamoDB fails, never 5xx otherwise", async () => {
    const saved = process.env.SST_RESOURCE_Main;
    process.env.SST_RESOURCE_Main = JSON.stringify({ name: "no-such-table" });
    clearLookupCache();
    try {
      const res = await post(`${base()}/envelope/`, envelope);
      expect([res.status, res.headers.get("retry-after")]).toEqual([503, "5"]);
    } finally {
      process.env.SST_RESOURCE_Main = saved;
      clearLookupCache();
    }
    expect(await drain(queue)).toEqual([]);
  });

  it("answers 503 with Retry-After when SQS refuses, never 200", async () => {
    const saved = process.env.SST_RESOURCE_IngestQueue;
    process.env.SST_RESOURCE_IngestQueue = JSON.stringify({ url: `${JSON.parse(saved!).url}-missing` });
    try {
      const res = await post(`${base()}/envelope/`, envelope);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
    } finally {
      process.env.SST_RESOURCE_IngestQueue = saved;
    }
  });
});

describe("as a Lambda function URL", () => {
  it("serves a function-URL (payload v2) event with a base64 gzip body", async () => {
    const rawPath = `${base()}/envelope/`;
    const event = {
      version: "2.0",
      routeKey: "$default",
      rawPath,
      rawQueryString: `sentry_version=7&sentry_key=${t.publicKey}`,
      headers: { host: "abc.lambda-url.us-east-1.on.aws", "content-encoding": "gzip" },
      requestContext: { accountId: "anonymous", apiId: "abc", domainName: "abc.lambda-url.us-east-1.on.aws", http: { method: "POST", path: rawPath, protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: "sentry" }, requestId: "url-req-1", routeKey: "$default", stage: "$default", time: new Date().toUTCString(), timeEpoch: Date.now() },
      body: gzipSync(envelope).toString("base64"),
      isBase64Encoded: true,
    };
    const context = { awsRequestId: "ctx", functionName: "Ingest", getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
    const res = (await handler(event as never, context)) as { statusCode: number; body: string };
    expect([res.statusCode, JSON.parse(res.body)]).toEqual([200, { id: "7c9e6679742545f5b4c3d2e1f0a9b8c7" }]);
    expect((await drain(queue)).map((m) => m.eventId)).toEqual(["7c9e6679742545f5b4c3d2e1f0a9b8c7"]);
  });
});
