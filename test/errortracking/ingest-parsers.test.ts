/** Parsers over every real-SDK capture, plus the framing, decoding and trimming edge cases. */
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { decodeBody } from "../../functions/errortracking/ingest/decode.js";
import { parseEnvelope } from "../../functions/errortracking/ingest/envelope.js";
import { parseStoreBody } from "../../functions/errortracking/ingest/store.js";
import { buildMessages, parseEnvelopeBody, parseStore } from "../../functions/errortracking/ingest/messages.js";
import { ingestLimits } from "../../functions/errortracking/ingest/limits.js";
import { ingestMessageSchema, MAX_MESSAGE_BYTES } from "../../functions/errortracking/domain/contracts.js";
import { FIXTURES, header, loadFixtures } from "./ingest-support.js";

const fixtures = loadFixtures();
const limits = ingestLimits();
const ctx = { projectId: 7, keyId: 9, receivedAt: "2026-11-21T05:14:15.000Z" };
const parse = async (body: Buffer, endpoint: "store" | "envelope") => (endpoint === "store" ? parseStore(body, limits) : parseEnvelopeBody(body, limits));

describe("fixture captures", () => {
  it("finds every capture (41 requests from 7 SDK folders)", () => {
    expect(fixtures.length).toBe(41);
    expect(new Set(fixtures.map((f) => f.name.split("/")[0])).size).toBe(7);
  });

  for (const f of fixtures) {
    it(`${f.name}: decodes, parses and builds contract messages`, async () => {
      const decoded = await decodeBody(f.wire, header(f, "content-encoding"), limits.maxDecompressedBytes);
      expect(decoded).toMatchObject({ ok: true });
      if (!decoded.ok) return;
      expect(decoded.value.equals(f.decoded)).toBe(true);
      const parsed = await parse(decoded.value, f.endpoint);
      if (!parsed.ok) throw new Error(parsed.error.reason);
      const expectedKinds = f.endpoint === "store" ? ["event"] : f.items.map((t) => (t === "event" ? "event" : "session"));
      expect(parsed.value.units.map((u) => u.kind)).toEqual(expectedKinds);
      const bodies = buildMessages(parsed.value.units, ctx);
      expect(bodies).toHaveLength(expectedKinds.length);
      for (const body of bodies) {
        expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
        const message = ingestMessageSchema.parse(JSON.parse(body));
        expect(message).toMatchObject({ projectId: 7, keyId: 9, receivedAt: ctx.receivedAt });
        if (message.kind === "event") {
          const exc = message.payload.exception as { values?: unknown[] } | undefined;
          expect(exc === undefined || Array.isArray(exc.values)).toBe(true);
          expect(exc !== undefined || message.payload.message !== undefined).toBe(true);
          expect(message.payload.event_id).toBe(message.eventId);
          expect(parsed.value.responseId).toBe(message.eventId);
        }
      }
      // The id answered is the SDK's own event id when it sent one.
      const sdkId = f.endpoint === "envelope" ? JSON.parse(f.decoded.toString("utf8").split("\n")[0]!).event_id : undefined;
      if (sdkId) expect(parsed.value.responseId).toBe(sdkId);
    });
  }

  it("decodes raven's base64(zlib(JSON)) bodies to the documented JSON", async () => {
    const raven = fixtures.filter((f) => header(f, "content-type") === "application/octet-stream");
    expect(raven.length).toBe(3);
    for (const f of raven) {
      const file = `${FIXTURES}/${f.name.split("/")[0]}/${f.name.split("/")[1]}-POST-api_v4_error_tracking_collector_api_1_store.decoded.json`;
      const event = await parseStoreBody(f.decoded, limits.maxEventBytes);
      const documented = JSON.parse(readFileSync(file, "utf8"));
      // The captures' placeholder pass rewrote the kernel build string in the .decoded.json files
      // but not inside every base64 body; everything else matches byte for byte.
      const withoutBuild = (e: any) => (e?.extra?.server?.os ? { ...e, extra: { ...e.extra, server: { ...e.extra.server, os: { ...e.extra.server.os, build: "-" } } } } : e);
      expect(event.ok && withoutBuild(event.value)).toEqual(withoutBuild(documented));
    }
  });

  it("normalises sentry-go's exception array and raven-go's single exception object", async () => {
    for (const name of ["go-sentry-go/001", "go-raven-go/001"]) {
      const f = fixtures.find((x) => x.name === name)!;
      const parsed = await parseStore(f.decoded, limits);
      if (!parsed.ok) throw new Error(parsed.error.reason);
      const exc = parsed.value.units[0]!.payload.exception as { values: Array<{ type: string }> };
      expect(exc.values.length).toBeGreaterThan(0);
      expect(typeof exc.values[0]!.type).toBe("string");
    }
  });
});

const env = (...lines: string[]) => Buffer.from(lines.join("\n"));

describe("envelope framing", () => {
  it("honours length (payload containing newlines) and newline framing, with or without a final newline", () => {
    const payload = '{"a":\n1}';
    const r = parseEnvelope(env("{}", `{"type":"attachment","length":${Buffer.byteLength(payload)}}`, payload, '{"type":"event"}', '{"message":"x"}'));
    expect(r.ok && r.value.items.map((i) => [i.type, i.payload.toString()])).toEqual([["attachment", payload], ["event", '{"message":"x"}']]);
    const trailing = parseEnvelope(env("{}", '{"type":"event"}', '{"message":"x"}', "", ""));
    expect(trailing.ok && trailing.value.items.length).toBe(1);
  });

  it("counts length in bytes, not characters", () => {
    const payload = '{"message":"héllo ✓"}';
    const r = parseEnvelope(env("{}", `{"type":"event","length":${Buffer.byteLength(payload)}}`, payload));
    expect(r.ok && r.value.items[0]!.payload.toString()).toBe(payload);
  });

  it("accepts an empty header and no items, and CRLF line ends", () => {
    expect(parseEnvelope(Buffer.from("{}"))).toMatchObject({ ok: true, value: { items: [] } });
    const crlf = parseEnvelope(Buffer.from('{}\r\n{"type":"event"}\r\n{"message":"x"}\r\n'));
    expect(crlf.ok && crlf.value.items.length).toBe(1);
  });

  it("returns typed 400s for malformed framing", () => {
    const cases = [
      env(""),
      env("not json", '{"type":"event"}', "{}"),
      env("[]"),
      env("{}", "garbage"),
      env("{}", '{"notype":1}', "{}"),
      env("{}", '{"type":"event","length":100}', "{}"),
      env("{}", '{"type":"event","length":1}', "{}"),
      env("{}", '{"type":"event","length":-1}', "{}"),
      env("{}", '{"type":"event","length":"2"}', "{}"),
    ];
    for (const body of cases) expect(parseEnvelope(body)).toMatchObject({ ok: false, error: { status: 400 } });
  });

  it("skips unknown and dropped item types, queues events and sessions", () => {
    const r = parseEnvelopeBody(
      env('{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}', '{"type":"client_report"}', "not-even-json", '{"type":"brand_new_type"}', "\u0000\u0001", '{"type":"transaction"}', "{}", '{"type":"event"}', '{"message":"m"}', '{"type":"session"}', '{"sid":"s"}', '{"type":"sessions"}', '{"aggregates":[]}'),
      limits,
    );
    expect(r.ok && r.value.units.map((u) => u.kind)).toEqual(["event", "session", "session"]);
    expect(r.ok && r.value.dropped).toBe(3);
    expect(r.ok && r.value.units[0]!.eventId).toBe("9ec79c33ec9942ab8353589fcb2e04dc");
  });

  it("rejects an event item that is not a JSON object, and answers 413 over the event size", () => {
    expect(parseEnvelopeBody(env("{}", '{"type":"event"}', "[1]"), limits)).toMatchObject({ ok: false, error: { status: 400 } });
    const big = JSON.stringify({ message: "x".repeat(limits.maxEventBytes) });
    expect(parseEnvelopeBody(env("{}", '{"type":"event"}', big), limits)).toMatchObject({ ok: false, error: { status: 413 } });
  });

  it("accepts an event with neither exception nor message with 200 semantics but queues nothing", () => {
    const r = parseEnvelopeBody(env("{}", '{"type":"event"}', '{"level":"info"}'), limits);
    expect(r.ok && [r.value.units.length, r.value.dropped]).toEqual([0, 1]);
  });
});

describe("Content-Encoding", () => {
  const json = Buffer.from('{"message":"hello"}');
  it("decodes gzip, deflate (zlib and raw), br, none, empty and identity", async () => {
    const variants: Array<[string | undefined, Buffer]> = [
      ["gzip", gzipSync(json)],
      ["GZIP", gzipSync(json)],
      ["x-gzip", gzipSync(json)],
      ["deflate", deflateSync(json)],
      ["deflate", deflateRawSync(json)],
      ["br", brotliCompressSync(json)],
      [undefined, json],
      ["", json],
      ["identity", json],
      ["br, gzip", gzipSync(brotliCompressSync(json))],
    ];
    for (const [coding, body] of variants) expect(await decodeBody(body, coding, 1000)).toEqual({ ok: true, value: json });
  });

  it("answers 415 for unknown encodings, 400 for corrupt data, 413 for bombs", async () => {
    expect(await decodeBody(json, "compress", 1000)).toMatchObject({ ok: false, error: { status: 415 } });
    expect(await decodeBody(json, "gzip", 1000)).toMatchObject({ ok: false, error: { status: 400 } });
    const bomb = Buffer.alloc(50 * 1024 * 1024);
    for (const [coding, body] of [["gzip", gzipSync(bomb)], ["deflate", deflateSync(bomb)], ["br", brotliCompressSync(bomb)]] as const) {
      expect(body.length).toBeLessThan(100_000);
      expect(await decodeBody(body, coding, 1024 * 1024)).toMatchObject({ ok: false, error: { status: 413 } });
    }
    expect(await decodeBody(Buffer.alloc(2000), undefined, 1000)).toMatchObject({ ok: false, error: { status: 413 } });
  });
});

describe("store bodies", () => {
  const event = { event_id: "aa3667d9fa214f5780d718ee75740381", message: "m" };
  it("reads JSON, base64(zlib), base64(gzip), base64(JSON) and raw zlib", async () => {
    const json = Buffer.from(JSON.stringify(event));
    for (const body of [json, Buffer.from(deflateSync(json).toString("base64")), Buffer.from(gzipSync(json).toString("base64")), Buffer.from(json.toString("base64")), deflateSync(json)]) {
      expect(await parseStoreBody(body, 10_000)).toEqual({ ok: true, value: event });
    }
  });

  it("returns typed errors for junk and for bombs hidden in base64", async () => {
    for (const junk of ["", "   ", "[1,2]", "null", "{broken", "%%%", "eJzz"]) expect(await parseStoreBody(Buffer.from(junk), 10_000)).toMatchObject({ ok: false, error: { status: 400 } });
    const bomb = Buffer.from(deflateSync(Buffer.alloc(5_000_000)).toString("base64"));
    expect(await parseStoreBody(bomb, 1_000_000)).toMatchObject({ ok: false, error: { status: 413 } });
  });
});
