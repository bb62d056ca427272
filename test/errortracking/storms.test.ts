/**
 * Error storms through the consumer, called directly with real-shaped SQS batches: one error's
 * events recorded per batch in a few transactions (`record-events.ts`), counted exactly under
 * redelivery across batches and concurrent consumers, several errors in one batch, transactions
 * split at DynamoDB's 100 actions, and writes counted on the consumer's own DynamoDB client.
 * Conflicts, which DynamoDB Local never produces: `storm-conflicts.test.ts`.
 */
import { describe, expect, it } from "vitest";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { api } from "../support/api.js";
import { exceptionEvent, expectHourlyCounts, listErrors, message, sqsEvent, trackedProject } from "./support.js";
import { handler } from "../../functions/errortracking/workers/consumer.js";
import { dynamo } from "../../functions/platform/aws.js";
import { putItem, getItem, writeBatch } from "../../functions/platform/db/table.js";
import { errorKey, expireAtFor, keyHash, userKey } from "../../functions/errortracking/domain/keys.js";
import { TAG_READ_LIMIT, tagKey } from "../../functions/errortracking/domain/tags.js";
import { parseEvent } from "../../functions/errortracking/domain/event.js";
import type { IngestMessage } from "../../functions/errortracking/domain/contracts.js";

const shuffle = <T>(xs: T[]) => xs.map((x) => [Math.random(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);
// Three hours back: the storm spans 2.5 h and event times after receipt are clamped to the receipt time.
const T0 = Math.floor(Date.now() / 1000 - 3 * 3600) * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

/** One batch, as the event source hands it over; the messages that failed. */
async function batch(messages: IngestMessage[]): Promise<string[]> {
  const out = await handler(sqsEvent(messages));
  return out.batchItemFailures.map((f) => f.itemIdentifier);
}

/** `n` events of one error, 30 s apart from T0, users round-robin. */
function storm(projectId: number, n: number, users: number, type = "StormError") {
  return Array.from({ length: n }, (_, i) => message(projectId, exceptionEvent({ type, value: `at ${i}`, user: { id: `u${i % users}` }, timestamp: (T0 + i * 30_000) / 1000 })));
}

/** Counts the writes the process's DynamoDB client commits, by item, while `fn` runs. */
async function countWrites(fn: () => Promise<unknown>): Promise<Map<string, number>> {
  const byItem = new Map<string, number>();
  const key = (k: Record<string, AttributeValue> | undefined) => `${k?.pk?.S} ${k?.sk?.S}`;
  const name = `stormWriteCounter${Math.random()}`;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      const input = args.input as Record<string, any>;
      const written: string[] = [];
      if (context.commandName === "TransactWriteItemsCommand") for (const i of input.TransactItems) written.push(key((i.Put?.Item ?? i.Update?.Key ?? i.Delete?.Key) as never));
      else if (["PutItemCommand"].includes(context.commandName!)) written.push(key(input.Item));
      else if (["UpdateItemCommand", "DeleteItemCommand"].includes(context.commandName!)) written.push(key(input.Key));
      for (const k of written) byItem.set(k, (byItem.get(k) ?? 0) + 1);
      return out;
    },
    { step: "initialize", name },
  );
  try {
    await fn();
  } finally {
    dynamo().middlewareStack.remove(name);
  }
  return byItem;
}

describe("error storms", () => {
  it("counts a storm exactly when every message is delivered 2-3 times across batches, two consumers at once", async () => {
    const { owner, project, ui } = await trackedProject();
    const events = storm(project.id, 300, 23);
    // Every message twice, a third of them three times, shuffled into batches of 150 taken two at a time.
    const deliveries = shuffle([...events, ...events, ...events.filter((_, i) => i % 3 === 0)]);
    const batches = Array.from({ length: Math.ceil(deliveries.length / 150) }, (_, i) => deliveries.slice(i * 150, i * 150 + 150));
    for (let i = 0; i < batches.length; i += 2) expect((await Promise.all(batches.slice(i, i + 2).map(batch))).flat()).toEqual([]);
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ count: 300, user_count: 23, first_seen: iso(T0), last_seen: iso(T0 + 299 * 30_000), message: "at 299" });
    expectHourlyCounts(error!.frequency, events.map((_, i) => T0 + i * 30_000));
    // The user tag's values (on the user markers) and the others count each event once.
    const tags = (await api("GET", `/api/0/issues/${error!.id}/tags/`, { token: owner.token })).body as Array<{ key: string; totalValues: number; topValues: Array<{ value: string; count: number }> }>;
    const byKey = Object.fromEntries(tags.map((t) => [t.key, t]));
    expect(byKey.user!.totalValues).toBe(300);
    expect(byKey.user!.topValues.find((v) => v.value === "id:u0")!.count).toBe(14); // i ≡ 0 (mod 23) for i < 300
    expect(byKey.level!.topValues).toEqual([expect.objectContaining({ value: "error", count: 300 })]);
  });

  it("records a batch of many errors, with copies of its own messages, each error exactly", async () => {
    const { owner, project, ui } = await trackedProject();
    const events = Array.from({ length: 40 }, (_, e) => storm(project.id, 6, 4, `Mixed${e}Error`)).flat();
    const copies = events.filter((_, i) => i % 4 === 0);
    expect(await batch(shuffle([...events, ...copies]))).toEqual([]);
    const errors = [];
    for (let cursor: string | undefined, page = 0; page < 5; page++) {
      const res = await listErrors(owner.token, ui, cursor ? `?cursor=${cursor}` : "");
      errors.push(...res.errors);
      cursor = res.pagination.next?.cursor;
      if (!cursor) break;
    }
    expect(errors).toHaveLength(40);
    expect(new Set(errors.map((e) => `${e.count}/${e.user_count}`))).toEqual(new Set(["6/4"]));
  });

  it("splits a large group at DynamoDB's 100 actions, and writes at most 2 items per event and the error item at most 20 times per 1,000 events", async () => {
    const { owner, project, ui } = await trackedProject();
    const events = storm(project.id, 250, 50);
    const writes = await countWrites(async () => expect(await batch(shuffle(events))).toEqual([]));
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ count: 250, user_count: 50 });
    const total = [...writes.values()].reduce((a, b) => a + b, 0);
    const errorItem = errorKey(project.id, parseEvent(project.id, events[0]!.payload, events[0]!.receivedAt).errorId);
    const errorWrites = writes.get(`${errorItem.pk} ${errorItem.sk}`)!;
    // 250 events cannot share one transaction; each transaction writes the error once.
    expect(errorWrites).toBeGreaterThanOrEqual(3);
    expect(errorWrites / 250).toBeLessThanOrEqual(20 / 1000);
    expect(total / 250).toBeLessThanOrEqual(2);
    expect(Math.max(...writes.values())).toBe(errorWrites);
  });

  it("adds a user's events to a user tag counted before the markers held it", async () => {
    const { owner, project, ui } = await trackedProject();
    const [first, ...rest] = storm(project.id, 5, 1, "OldUserError");
    const errorId = parseEvent(project.id, first!.payload, first!.receivedAt).errorId;
    expect(await batch([first!])).toEqual([]);
    // As an earlier version left it: the marker without the tag, the tag on its own `TAG#user#` item.
    const marker = userKey(project.id, errorId, keyHash("id:u0"));
    const markerItem = await getItem<Record<string, unknown>>(marker.pk, marker.sk);
    await putItem({ ...marker, expireAt: markerItem!.expireAt });
    await putItem({ ...tagKey(project.id, errorId, "user", "id:u0"), tagKey: "user", tagValue: "id:u0", eventsCount: 1, firstSeen: iso(T0), lastSeen: iso(T0), expireAt: expireAtFor(new Date().toISOString()) });
    expect(await batch(rest)).toEqual([]);
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ count: 5, user_count: 1 });
    const tags = (await api("GET", `/api/0/issues/${error!.id}/tags/?key=user`, { token: owner.token })).body;
    expect(tags[0].topValues).toEqual([expect.objectContaining({ value: "id:u0", count: 5, firstSeen: iso(T0), lastSeen: iso(T0 + 4 * 30_000) })]);
  });

  it("gives each tag value its own first and last seen when a group spans transactions cut out of time order", async () => {
    const { owner, project, ui } = await trackedProject();
    const at = (seconds: number, release: string) => message(project.id, { ...exceptionEvent({ type: "SpanError", value: "x", release, timestamp: (T0 + seconds * 1000) / 1000 }), tags: { shard: "s1" } });
    // An earlier batch saw release b (without the shard) at T0.
    expect(await batch([message(project.id, exceptionEvent({ type: "SpanError", value: "x", release: "b", timestamp: T0 / 1000 }))])).toEqual([]);
    // This batch's transactions group events by their tag values: release a's 150 events, then
    // release b's three, which are older than most of a's. The shard s1 is new with both.
    const releaseA = Array.from({ length: 150 }, (_, i) => at(100 + i, "a"));
    const releaseB = [at(50, "b"), at(51, "b"), at(52, "b")];
    expect(await batch(shuffle([...releaseA, ...releaseB]))).toEqual([]);
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ count: 154, first_seen: iso(T0), last_seen: iso(T0 + 249_000) });
    const tags = (await api("GET", `/api/0/issues/${error!.id}/tags/`, { token: owner.token })).body as Array<{ key: string; topValues: Array<{ value: string; count: number; firstSeen: string; lastSeen: string }> }>;
    const value = (key: string, v: string) => tags.find((t) => t.key === key)?.topValues.find((x) => x.value === v);
    expect(value("release", "a")).toMatchObject({ count: 150, firstSeen: iso(T0 + 100_000), lastSeen: iso(T0 + 249_000) });
    expect(value("release", "b")).toMatchObject({ count: 4, firstSeen: iso(T0), lastSeen: iso(T0 + 52_000) });
    expect(value("shard", "s1")).toMatchObject({ count: 153, firstSeen: iso(T0 + 50_000), lastSeen: iso(T0 + 249_000) });
  });

  it("counts a user tag the SDK set on an event without a user", async () => {
    const { owner, project, ui } = await trackedProject();
    const tagged = () => message(project.id, { ...exceptionEvent({ type: "TaggedUserError" }), tags: { user: "build-bot" } });
    expect(await batch([tagged(), tagged()])).toEqual([]);
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ count: 2, user_count: 0 });
    const tags = (await api("GET", `/api/0/issues/${error!.id}/tags/?key=user`, { token: owner.token })).body;
    expect(tags[0].topValues).toEqual([expect.objectContaining({ value: "build-bot", count: 2 })]);
  });

  it("lists an error's tags when its values fill the read budget before the users are read", async () => {
    const { owner, project, ui } = await trackedProject();
    const [first] = storm(project.id, 1, 1, "ManyValuesError");
    expect(await batch([first!])).toEqual([]);
    const errorId = parseEvent(project.id, first!.payload, first!.receivedAt).errorId;
    const expireAt = expireAtFor(new Date().toISOString());
    await writeBatch(Array.from({ length: TAG_READ_LIMIT }, (_, i) => ({ put: { ...tagKey(project.id, errorId, "url", `/page/${i}`), tagKey: "url", tagValue: `/page/${i}`, eventsCount: 1, firstSeen: iso(T0), lastSeen: iso(T0), expireAt } })));
    const [error] = (await listErrors(owner.token, ui)).errors;
    const res = await api("GET", `/api/0/issues/${error!.id}/tags/`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.find((t: { key: string }) => t.key === "url")).toBeDefined();
  });
});
