/**
 * The SQS consumer, called directly with real-shaped SQS events: idempotency by event id under
 * redelivery, poison messages failing alone, exact users-affected, and exact counters and first/last
 * seen under two concurrent consumers with overlapping deliveries.
 */
import { describe, it, expect } from "vitest";
import { deliver, eventId, exceptionEvent, expectHourlyCounts, listErrors, message, trackedProject } from "./support.js";
import { api } from "../support/api.js";
import { handler } from "../../functions/errortracking/workers/consumer.js";
import { sqsEvent } from "./support.js";
import { releaseHealth } from "../../functions/errortracking/domain/errors.js";
import type { IngestMessage } from "../../functions/errortracking/domain/contracts.js";

const shuffle = <T>(xs: T[]) => xs.map((x) => [Math.random(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);
// In the past: event times after receipt are clamped to the receipt time.
const T0 = Math.floor(Date.now() / 1000 - 3600) * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

/** 3 errors, 12 events, 5 distinct users spread over them, timestamps a minute apart. */
function workload(projectId: number): IngestMessage[] {
  const users: Array<Record<string, string>> = [{ id: "1" }, { email: "b@example.com" }, { ip_address: "10.0.0.9" }, { username: "carol" }, { id: "1", email: "other@example.com" }];
  return Array.from({ length: 12 }, (_, i) =>
    message(projectId, exceptionEvent({ type: ["TypeError", "RangeError", "SyntaxError"][i % 3], value: `v${i}`, user: users[i % 5], timestamp: (T0 + i * 60_000) / 1000 })),
  );
}

const summary = (errors: Array<Record<string, any>>) =>
  errors.map((e) => ({ type: e.title.split(":")[0], count: e.count, users: e.user_count, first: e.first_seen, last: e.last_seen, message: e.message })).sort((a, b) => a.type.localeCompare(b.type));

describe("error tracking consumer", () => {
  it("counts every message once however often SQS delivers it (×3, shuffled, duplicates in one batch)", async () => {
    const once = await trackedProject();
    const thrice = await trackedProject({ owner: once.owner });
    expect(await deliver(workload(once.project.id))).toEqual([]);
    const messages = workload(thrice.project.id);
    expect(await deliver(shuffle([...messages, ...messages, ...messages]))).toEqual([]);
    const a = summary((await listErrors(once.owner.token, once.ui)).errors);
    const b = summary((await listErrors(thrice.owner.token, thrice.ui)).errors);
    expect(a).toHaveLength(3);
    expect(b).toEqual(a);
    expect(a.map((e) => e.count)).toEqual([4, 4, 4]);
  });

  it("fails a poison message alone: only it is in batchItemFailures, the others are processed", async () => {
    const { owner, project, ui } = await trackedProject();
    const good = [message(project.id, exceptionEvent({ type: "GoodError" })), message(project.id, exceptionEvent({ type: "GoodError" }))];
    const event = sqsEvent([good[0]!, "{not json", good[1]!, JSON.stringify({ eventId: "xyz", projectId: project.id })]);
    const out = await handler(event);
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual([event.Records[1]!.messageId, event.Records[3]!.messageId].sort());
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ title: "GoodError: boom", count: 2 });
  });

  it("counts users affected exactly across id, username, e-mail and IP identified users", async () => {
    const { owner, project, ui } = await trackedProject();
    const users: Array<Record<string, string> | undefined> = [
      { id: "42" }, { id: "42", email: "alice@example.com", ip_address: "10.1.2.3" }, { id: "42" }, // id 42 (id wins over e-mail and IP)
      { email: "bob@example.com" }, { email: "bob@example.com", ip_address: "10.0.0.2" }, // e-mail bob
      { ip_address: "10.0.0.1" }, { ip_address: "10.0.0.1" }, // IP only
      { username: "carol" }, { username: "carol", email: "carol@example.com" }, // username wins over e-mail
      { ip_address: "{{auto}}" }, undefined, undefined, // not identified
    ];
    // Two of each in parallel batches: concurrent first sightings of one user must still count once.
    const messages = users.flatMap((user) => [0, 1].map(() => message(project.id, exceptionEvent({ type: "UserError", user }))));
    const batches = [messages.filter((_, i) => i % 2 === 0), messages.filter((_, i) => i % 2 === 1)];
    expect((await Promise.all(batches.map(deliver))).flat()).toEqual([]);
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ count: 24, user_count: 4 });
  });

  it("keeps occurrences and first/last seen exact under two concurrent consumers with overlapping deliveries", async () => {
    const { owner, project, ui } = await trackedProject();
    const times = shuffle(Array.from({ length: 40 }, (_, i) => T0 + i * 1000));
    const messages = times.map((t, i) => message(project.id, exceptionEvent({ type: "RaceError", value: `at ${t}`, user: { id: String(i % 7) }, timestamp: t / 1000 })));
    // Consumer A gets messages 0–29, consumer B 10–39: 20 messages are delivered to both at once.
    const [a, b] = await Promise.all([deliver(messages.slice(0, 30)), deliver(messages.slice(10))]);
    expect([...a, ...b]).toEqual([]);
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ count: 40, user_count: 7, first_seen: iso(T0), last_seen: iso(T0 + 39_000), message: `at ${T0 + 39_000}` });
  });

  it("moves first and last seen for out-of-order events, the latest description winning", async () => {
    const { owner, project, ui } = await trackedProject();
    for (const [t, v] of [[T0 + 5000, "middle"], [T0, "oldest"], [T0 + 9000, "newest"], [T0 + 1000, "late"]] as const) {
      await deliver([message(project.id, exceptionEvent({ type: "OrderError", value: v, timestamp: t / 1000, release: v === "oldest" ? "1.0" : "2.0" }))]);
    }
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ count: 4, first_seen: iso(T0), last_seen: iso(T0 + 9000), message: "newest" });
  });

  it("groups by the SDK fingerprint when given, by message for message events", async () => {
    const { owner, project, ui } = await trackedProject();
    const nodeMessage = (text: string) => ({ message: text, level: "warning", platform: "node", exception: { values: [{ value: text, stacktrace: { frames: [{ function: "?", lineno: 1 }] } }] } });
    await deliver([
      message(project.id, exceptionEvent({ type: "AError", fingerprint: ["db-down"] })),
      message(project.id, exceptionEvent({ type: "BError", fingerprint: ["db-down"] })),
      message(project.id, exceptionEvent({ type: "AError", fn: "elsewhere", fingerprint: ["{{ default }}", "x"] })),
      message(project.id, nodeMessage("disk almost full")),
      message(project.id, nodeMessage("disk almost full")),
      message(project.id, { message: { formatted: "user 7 failed", message: "user %s failed" }, platform: "python" }),
      message(project.id, { logentry: { formatted: "user 9 failed", message: "user %s failed" }, platform: "python" }),
    ]);
    const errors = (await listErrors(owner.token, ui, "?sort=frequency")).errors;
    expect(errors.map((e) => [e.count, e.type]).sort()).toEqual([[1, "error"], [2, "default"], [2, "default"], [2, "error"]]);
    expect(errors.find((e) => e.message === "disk almost full")).toMatchObject({ title: "disk almost full", type: "default" });
  });

  it("turns session updates into per-release crash-free counts, once per session and state", async () => {
    const { project } = await trackedProject();
    const release = `rel-${eventId().slice(0, 6)}`;
    const session = (sid: string, status: string, errors = 0) => message(project.id, { sid, status, errors, init: status === "ok", attrs: { release, environment: "dev" } }, { kind: "session" });
    const updates = [
      session("a", "ok"), session("a", "exited"),
      session("b", "ok", 1), session("b", "crashed", 1),
      session("c", "abnormal"),
      message(project.id, { attrs: { release }, aggregates: [{ started: "2026-11-21T10:00:00Z", exited: 2, errored: 1, crashed: 1 }] }, { kind: "session" }),
      message(project.id, { sid: "d", status: "ok" }, { kind: "session" }), // no release: ignored, as Sentry does
    ];
    expect(await deliver([...updates, ...updates])).toEqual([]);
    const [health] = await releaseHealth(project.id, [release]);
    expect(health).toEqual({ version: release, sessions: 7, errored_sessions: 4, crashed_sessions: 2, abnormal_sessions: 1, crash_free_sessions: 1 - 2 / 7 });
  });

  it("fills frequency with the events of each of the last 24 hours, each counted once however often it is delivered", async () => {
    const { owner, project, ui } = await trackedProject();
    const now = Date.now();
    const times = [now - 5 * 60_000, now - 4 * 60_000, now - 3 * 3_600_000, now - 3 * 3_600_000 + 1000, now - 3 * 3_600_000 + 2000, now - 30 * 3_600_000];
    const messages = times.map((t) => message(project.id, exceptionEvent({ type: "HourlyError", timestamp: t / 1000 })));
    expect(await deliver(shuffle([...messages, ...messages]))).toEqual([]);
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ count: 6 });
    // The event of 30 hours ago counts in `count`, not in the last 24 hours.
    expectHourlyCounts(error!.frequency, times.slice(0, 5));
    expect(error!.frequency.reduce((sum: number, [, n]: [number, number]) => sum + n, 0)).toBe(5);
    const details = await api("GET", `${ui}/${error!.id}/details.json`, { token: owner.token });
    expectHourlyCounts(details.body.error.frequency, times.slice(0, 5));
  });

  it("fills frequency_30d with the events of each of the last 30 days, each counted once under 3× redelivery", async () => {
    const { owner, project, ui } = await trackedProject();
    const now = Date.now();
    const DAY = 86_400_000;
    // Today twice, 2 days ago three times, 29 days ago once (the oldest day shown), 31 days ago once (not shown).
    const times = [now - 60_000, now - 120_000, now - 2 * DAY, now - 2 * DAY + 1000, now - 2 * DAY + 2000, now - 29 * DAY, now - 31 * DAY];
    const messages = times.map((t) => message(project.id, exceptionEvent({ type: "DailyError", timestamp: t / 1000 })));
    // Three deliveries of every message, shuffled, the first two in one batch.
    expect(await deliver(shuffle([...messages, ...messages]))).toEqual([]);
    expect(await deliver(shuffle(messages))).toEqual([]);
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ count: 7 });
    const daily = (await api("GET", `${ui}/${error!.id}/details.json`, { token: owner.token })).body.error.frequency_30d as Array<[number, number]>;
    const dayStart = (ms: number) => Math.floor(ms / DAY) * 86_400;
    expect(daily).toHaveLength(30);
    expect(daily.map(([t]) => t)).toEqual(Array.from({ length: 30 }, (_, i) => dayStart(now) - (29 - i) * 86_400));
    const expected = new Map<number, number>();
    for (const t of times.slice(0, 6)) expected.set(dayStart(t), (expected.get(dayStart(t)) ?? 0) + 1);
    expect(daily).toEqual(daily.map(([t]) => [t, expected.get(t) ?? 0]));
    expect(daily.reduce((sum, [, n]) => sum + n, 0)).toBe(6);
    // GitLab's fields are unchanged beside it.
    expectHourlyCounts((await api("GET", `${ui}/${error!.id}/details.json`, { token: owner.token })).body.error.frequency, times.slice(0, 2));
  });
});
