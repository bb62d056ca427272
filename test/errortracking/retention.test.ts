/**
 * 90-day retention at its boundary: an item received 90 days minus a minute ago stays, one received
 * 90 days plus a minute ago goes (with its error, users, hourly and daily counters and session data); a second run removes
 * nothing; a run stopped by its deadline is finished by the next one.
 */
import { describe, it, expect } from "vitest";
import { deleteItem, getItem } from "../../functions/platform/db/table.js";
import { runRetention } from "../../functions/errortracking/domain/retention.js";
import { getError, releaseHealth } from "../../functions/errortracking/domain/errors.js";
import { dayCountKey, dayOf, errorKey, eventKey, hourKey, hourOf, keyHash, releaseKey, retentionCursorKey, sessionKey, userKey } from "../../functions/errortracking/domain/keys.js";
import { parseEvent } from "../../functions/errortracking/domain/event.js";
import { deliver, exceptionEvent, message, trackedProject } from "./support.js";

const DAY = 86_400_000;

describe("error tracking retention", () => {
  it("keeps 90 days minus a minute, removes 90 days plus a minute, and a second run removes nothing", async () => {
    const now = new Date();
    const kept = new Date(now.getTime() - 90 * DAY + 60_000).toISOString();
    const gone = new Date(now.getTime() - 90 * DAY - 60_000).toISOString();
    const { project } = await trackedProject();
    const pid = project.id;
    const event = (type: string, at: string, user?: Record<string, string>) =>
      message(pid, exceptionEvent({ type, user, timestamp: Date.parse(at) / 1000, release: `${type}-rel` }), { receivedAt: at });
    const session = (sid: string, at: string, release: string) => message(pid, { sid, status: "exited", attrs: { release } }, { kind: "session", receivedAt: at });
    const messages = [
      event("OldError", gone, { id: "u1" }),
      event("KeptError", kept, { id: "u2" }),
      event("MixedError", gone),
      event("MixedError", now.toISOString()),
      // Several expired errors, so small pages have to continue through the index.
      ...Array.from({ length: 5 }, (_, i) => event(`Page${i}Error`, gone)),
      session("old-session", gone, "old-rel"),
      session("kept-session", kept, "kept-rel"),
    ];
    expect(await deliver(messages)).toEqual([]);
    const idOf = (i: number) => parseEvent(pid, messages[i]!.payload, messages[i]!.receivedAt).errorId;
    const [oldId, keptId, mixedId] = [idOf(0), idOf(1), idOf(2)];

    // Every error exists before retention runs, so each one it finds gone it deleted itself.
    const expiring = [0, 4, 5, 6, 7, 8].map(idOf);
    // (Read raw: the error reads hide what is past its expiry, which these already are.)
    const present = await Promise.all(expiring.map((id) => getItem(errorKey(pid, id).pk, errorKey(pid, id).sk)));
    expect(present.every(Boolean)).toBe(true);
    // A deadline already passed stops the run before any work: it reports itself incomplete.
    expect(await runRetention({ now, deadline: Date.now() - 1 })).toEqual({ deletedItems: 0, deletedErrors: 0, complete: false });
    const first = await runRetention({ now, pageSize: 2 });
    expect(first.complete).toBe(true);
    expect(first.deletedErrors).toBeGreaterThanOrEqual(6);

    expect(await getError(pid, oldId)).toBeUndefined();
    expect(await getItem(userKey(pid, oldId, keyHash("id:u1")).pk, userKey(pid, oldId, keyHash("id:u1")).sk)).toBeUndefined();
    expect(await getItem(eventKey(pid, messages[0]!.eventId).pk, "EVENT")).toBeUndefined();
    // Its hourly counter goes with it; the kept error's stays.
    const hour = (id: number, at: string) => hourKey(pid, id, hourOf(at));
    expect(await getItem(hour(oldId, gone).pk, hour(oldId, gone).sk)).toBeUndefined();
    expect(await getItem(hour(keptId, kept).pk, hour(keptId, kept).sk)).toMatchObject({ eventsCount: 1 });
    // And so does its daily counter (the 30-day chart's); the kept error's stays.
    const day = (id: number, at: string) => dayCountKey(pid, id, dayOf(at));
    expect(await getItem(day(oldId, gone).pk, day(oldId, gone).sk)).toBeUndefined();
    expect(await getItem(day(keptId, kept).pk, day(keptId, kept).sk)).toMatchObject({ eventsCount: 1 });
    for (let i = 4; i < 9; i++) expect(await getError(pid, idOf(i))).toBeUndefined();
    expect(await getError(pid, keptId)).toMatchObject({ eventsCount: 1, userCount: 1 });
    expect(await getItem(eventKey(pid, messages[1]!.eventId).pk, "EVENT")).toBeDefined();
    expect(await getItem(userKey(pid, keptId, keyHash("id:u2")).pk, userKey(pid, keptId, keyHash("id:u2")).sk)).toBeDefined();
    // An error with a recent event stays; only its expired event goes.
    expect(await getError(pid, mixedId)).toMatchObject({ eventsCount: 2 });
    expect(await getItem(eventKey(pid, messages[2]!.eventId).pk, "EVENT")).toBeUndefined();
    expect(await getItem(eventKey(pid, messages[3]!.eventId).pk, "EVENT")).toBeDefined();
    // Session data follows its receipt time too.
    expect(await getItem(sessionKey(pid, "old-session").pk, "SESSION")).toBeUndefined();
    expect(await getItem(releaseKey(pid, "old-rel").pk, releaseKey(pid, "old-rel").sk)).toBeUndefined();
    expect(await getItem(sessionKey(pid, "kept-session").pk, "SESSION")).toBeDefined();
    expect((await releaseHealth(pid, ["kept-rel"]))[0]).toMatchObject({ sessions: 1 });

    expect(await runRetention({ now })).toEqual({ deletedItems: 0, deletedErrors: 0, complete: true });
  });

  it("a complete run records the day before the cutoff's as swept, and later runs start from it", async () => {
    const now = new Date();
    const cutoffDay = dayOf(new Date(now.getTime() - 90 * DAY).toISOString());
    const dayBefore = dayOf(new Date(Date.parse(cutoffDay) - DAY).toISOString());
    const cursor = () => getItem(retentionCursorKey.pk, retentionCursorKey.sk);
    const { project } = await trackedProject();
    // Received 95 days ago: a day that a recorded cursor says is already empty.
    const stale = message(project.id, exceptionEvent({ type: "StaleError" }), { receivedAt: new Date(now.getTime() - 95 * DAY).toISOString() });
    expect(await deliver([stale])).toEqual([]);
    const staleEvent = () => getItem(eventKey(project.id, stale.eventId).pk, "EVENT");

    // An incomplete run does not move the cursor.
    await deleteItem(retentionCursorKey.pk, retentionCursorKey.sk);
    expect((await runRetention({ now, deadline: Date.now() - 1 })).complete).toBe(false);
    expect(await cursor()).toBeUndefined();

    // Without a cursor the whole lookback is read: the stale event goes, and the cursor is recorded.
    expect((await runRetention({ now })).complete).toBe(true);
    expect(await staleEvent()).toBeUndefined();
    expect(await cursor()).toMatchObject({ through: dayBefore });

    // With the cursor, days before it are not read again (what lands there is left to DynamoDB TTL).
    const late = message(project.id, exceptionEvent({ type: "LateError" }), { receivedAt: new Date(now.getTime() - 95 * DAY).toISOString() });
    expect(await deliver([late])).toEqual([]);
    expect((await runRetention({ now })).complete).toBe(true);
    expect(await getItem(eventKey(project.id, late.eventId).pk, "EVENT")).toBeDefined();

    // A run for a future `now` never records a day the real clock has not reached the end of.
    expect((await runRetention({ now: new Date(now.getTime() + 10 * DAY) })).complete).toBe(true);
    expect((await cursor())?.through).toBe(dayOf(new Date(Date.parse(dayOf(new Date(Date.now() - 90 * DAY).toISOString())) - DAY).toISOString()));

    // Forgetting the cursor makes the next run read the whole lookback again.
    await deleteItem(retentionCursorKey.pk, retentionCursorKey.sk);
    expect((await runRetention({ now })).complete).toBe(true);
    expect(await getItem(eventKey(project.id, late.eventId).pk, "EVENT")).toBeUndefined();
  });

  it("the scheduled handler runs to completion within its time budget", async () => {
    const { handler } = await import("../../functions/errortracking/workers/retention.js");
    const result = await handler({}, { getRemainingTimeInMillis: () => 300_000 } as never);
    expect(result.complete).toBe(true);
  });
});
