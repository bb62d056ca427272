/** Queue messages: exception normalisation and trimming under MAX_MESSAGE_BYTES whatever the event. */
import { describe, it, expect } from "vitest";
import { buildMessages, toSqsBody } from "../../functions/errortracking/ingest/messages.js";
import { normalizeException, hasGroupableContent } from "../../functions/errortracking/ingest/normalize.js";
import { ingestMessageSchema, MAX_MESSAGE_BYTES } from "../../functions/errortracking/domain/contracts.js";

const ctx = { projectId: 7, keyId: 9, receivedAt: "2026-11-21T05:14:15.000Z" };

describe("exception normalisation", () => {
  it("wraps arrays and single objects into {values}, keeps {values}, drops junk", () => {
    const cases: Array<[unknown, unknown]> = [
      [[{ type: "A" }], { values: [{ type: "A" }] }],
      [{ type: "A", value: "v" }, { values: [{ type: "A", value: "v" }] }],
      [{ values: [{ type: "A" }, 3, null] }, { values: [{ type: "A" }] }],
      [{ values: null }, undefined],
      ["boom", undefined],
      [[], undefined],
    ];
    for (const [exception, expected] of cases) {
      const event: Record<string, unknown> = { exception };
      normalizeException(event);
      expect(event.exception).toEqual(expected);
    }
  });

  it("counts an exception, a message or a logentry as groupable content", () => {
    expect(hasGroupableContent({ exception: { values: [{}] } })).toBe(true);
    expect(hasGroupableContent({ message: "m" })).toBe(true);
    expect(hasGroupableContent({ message: { formatted: "m" } })).toBe(true);
    expect(hasGroupableContent({ logentry: { message: "m" } })).toBe(true);
    expect(hasGroupableContent({ message: "  ", level: "error" })).toBe(false);
  });
});

describe("message size", () => {
  const build = (payload: Record<string, unknown>) => buildMessages([{ kind: "event", payload, eventId: "aa3667d9fa214f5780d718ee75740381" }], ctx);

  it("trims oversized events under MAX_MESSAGE_BYTES, keeping the exception", () => {
    const frames = Array.from({ length: 400 }, (_, i) => ({ function: `f${i}`, vars: { big: "v".repeat(2000) }, pre_context: Array(20).fill("x".repeat(200)) }));
    const payload = {
      exception: { values: [{ type: "Boom", value: "bad", stacktrace: { frames } }] },
      breadcrumbs: { values: Array.from({ length: 500 }, () => ({ message: "b".repeat(500) })) },
      extra: { blob: "e".repeat(300_000) },
    };
    const [body] = build(payload);
    expect(Buffer.byteLength(body!)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    const msg = JSON.parse(body!);
    expect(msg.payload.exception.values[0].type).toBe("Boom");
    expect(msg.payload.breadcrumbs).toBeUndefined();
  });

  it("fits even adversarial events: every string escaped to six bytes, many keys, deep nesting", () => {
    const nasty = "\u0001".repeat(900_000 / 6);
    let deep: unknown = "leaf";
    for (let i = 0; i < 5000; i++) deep = { d: deep };
    const payload = {
      message: nasty,
      exception: Array.from({ length: 100 }, () => ({ type: nasty.slice(0, 3000), value: nasty.slice(0, 3000) })),
      tags: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, nasty.slice(0, 50)])),
      user: { id: nasty.slice(0, 5000), nested: deep },
    };
    const [body] = build(payload);
    expect(Buffer.byteLength(body!)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(ingestMessageSchema.safeParse(JSON.parse(body!)).success).toBe(true);
  });

  it("escapes U+FFFE/U+FFFF, which SQS refuses, and keeps the JSON identical", () => {
    const msg = { eventId: "aa3667d9fa214f5780d718ee75740381", projectId: 1, keyId: 1, receivedAt: "now", kind: "event" as const, payload: { message: "a\uffffb\ufffe" } };
    const body = toSqsBody(msg)!;
    expect(body).not.toMatch(/[\uFFFE\uFFFF]/);
    expect(JSON.parse(body)).toEqual(msg);
  });
});
