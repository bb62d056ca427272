/**
 * Transaction conflicts, which DynamoDB Local never produces (it serialises transactions) and
 * DynamoDB does when two consumers of a storm write the same error at once: the consumer retries
 * them with jittered backoff until they clear, and when they do not clear before its deadline it
 * fails the group's messages (SQS brings them back) rather than dropping or double-counting them.
 */
import { describe, expect, it, vi } from "vitest";

const conflicts = vi.hoisted(() => ({ left: 0, seen: 0, code: "TransactionConflict" }));
vi.mock("../../functions/platform/db/table.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../functions/platform/db/table.js")>();
  return {
    ...real,
    transact: async (items: Parameters<typeof real.transact>[0]) => {
      if (conflicts.left !== 0) {
        conflicts.left--;
        conflicts.seen++;
        throw Object.assign(new Error("Transaction cancelled"), { name: "TransactionCanceledException", CancellationReasons: items.map((_, i) => ({ Code: i === 0 ? conflicts.code : "None" })) });
      }
      return real.transact(items);
    },
  };
});
const { handler } = await import("../../functions/errortracking/workers/consumer.js");
const { exceptionEvent, listErrors, message, sqsEvent, trackedProject } = await import("./support.js");

const storm = (projectId: number, n: number, type: string) => Array.from({ length: n }, (_, i) => message(projectId, exceptionEvent({ type, user: { id: `u${i % 3}` } })));

describe("transaction conflicts on a storm's error", () => {
  it("are retried until they clear: every event counted once", async () => {
    const { owner, project, ui } = await trackedProject();
    conflicts.left = 8;
    const out = await handler(sqsEvent(storm(project.id, 20, "ConflictedError")));
    expect(out.batchItemFailures).toEqual([]);
    expect(conflicts.seen).toBe(8);
    expect((await listErrors(owner.token, ui)).errors[0]).toMatchObject({ count: 20, user_count: 3 });
  });

  it("that never clear fail the group's messages at the deadline, to come back; nothing is counted twice", async () => {
    const { owner, project, ui } = await trackedProject();
    const events = storm(project.id, 5, "StuckError");
    const event = sqsEvent(events);
    conflicts.left = -1;
    const out = await handler(event, { getRemainingTimeInMillis: () => 6_000 } as never);
    conflicts.left = 0;
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(event.Records.map((r) => r.messageId).sort());
    expect((await listErrors(owner.token, ui)).errors).toEqual([]);
    // SQS brings them back; now they are counted, once.
    expect((await handler(sqsEvent(events))).batchItemFailures).toEqual([]);
    expect((await listErrors(owner.token, ui)).errors[0]).toMatchObject({ count: 5, user_count: 3 });
  });

  it("throttling is paused and retried like a conflict", async () => {
    const { owner, project, ui } = await trackedProject();
    Object.assign(conflicts, { left: 4, seen: 0, code: "ThrottlingError" });
    const out = await handler(sqsEvent(storm(project.id, 6, "ThrottledError")));
    conflicts.code = "TransactionConflict";
    expect(out.batchItemFailures).toEqual([]);
    expect(conflicts.seen).toBe(4);
    expect((await listErrors(owner.token, ui)).errors[0]).toMatchObject({ count: 6, user_count: 3 });
  });

  it("a reason no retry cures fails the group's messages at once, without retrying", async () => {
    const { owner, project, ui } = await trackedProject();
    const events = storm(project.id, 4, "InvalidError");
    const event = sqsEvent(events);
    Object.assign(conflicts, { left: -1, seen: 0, code: "ValidationError" });
    const out = await handler(event);
    Object.assign(conflicts, { left: 0, code: "TransactionConflict" });
    expect(conflicts.seen).toBe(1);
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(event.Records.map((r) => r.messageId).sort());
    expect((await handler(sqsEvent(events))).batchItemFailures).toEqual([]);
    expect((await listErrors(owner.token, ui)).errors[0]).toMatchObject({ count: 4, user_count: 3 });
  });
});
