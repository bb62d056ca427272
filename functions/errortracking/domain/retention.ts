/**
 * 90-day retention, driven by the time index (gsi2 `ETDAY#<day>`, sort key `<receivedAt>#<pk>`):
 * for each day bucket from the cutoff day back LOOKBACK_DAYS, Query the entries older than the cutoff
 * and delete them. No per-project scans, no Scan at all.
 *
 * - Age is counted from when the service received an item, not from the SDK's clock: a skewed client
 *   can neither hide an event from retention nor have it deleted on arrival.
 * - An error goes when its newest event does: for every expired event the error is deleted with the
 *   condition `lastReceived < cutoff` (an error that got a newer event meanwhile stays), then its
 *   stale user markers and hourly and daily counters; the events themselves are deleted last, so a run stopped half-way is finished
 *   by the next one (idempotent, resumable, paged by a deadline).
 * - Items that move between buckets (a session, a release's health) are deleted on the condition that
 *   they are still old, since the index can lag behind a fresh update.
 * - Buckets older than LOOKBACK_DAYS before the cutoff are left to DynamoDB TTL (`expireAt`, set on
 *   every item): they only exist if retention did not run for a month.
 * - A complete run records the newest day it emptied (the retention cursor); the next run starts
 *   there, so the hourly run Queries two day buckets rather than the whole lookback. A day before
 *   the cutoff's day never gains items again: items are filed by the service's receipt time, and
 *   nothing waits 90 days between receipt and write (SQS keeps a message 14 days at most).
 */
import { docDelete, docGet, docPut, docQuery } from "../../platform/db/document.js";
import { resources } from "../../platform/resources.js";
import { GSI2, isConditionFailure, writeBatch } from "../../platform/db/table.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import { TAG_PREFIX } from "./tags.js";
import { DAY_COUNT_PREFIX, dayBucketPk, dayOf, errorKey, HOUR_PREFIX, RETENTION_DAYS, retentionCursorKey } from "./keys.js";

export const LOOKBACK_DAYS = 30;
/** Day buckets worked on at once. */
const DAYS_AT_ONCE = 8;
const DAY_MS = 86_400_000;
type Key = { pk: string; sk: string };
type Entry = Key & { kind?: string; projectId?: number; errorId?: number };

export interface RetentionResult {
  deletedItems: number;
  deletedErrors: number;
  /** False when the deadline stopped the run; the next run continues. */
  complete: boolean;
}

const table = () => resources.mainTable();

/** "deleted", "absent" (nothing was there) or "kept" (the condition protected it). */
async function conditionalDelete(key: Key, condition: string, values: Record<string, unknown>): Promise<"deleted" | "absent" | "kept"> {
  try {
    const out = await docDelete({ TableName: table(), Key: key, ConditionExpression: condition, ExpressionAttributeValues: values, ReturnValues: "ALL_OLD" });
    return out.Attributes ? "deleted" : "absent";
  } catch (err) {
    if (isConditionFailure(err)) return "kept";
    throw err;
  }
}

/** Deletes the error unless it got an event since the cutoff; then the user markers, hour and day counters and tag counts it left. */
async function purgeError(projectId: number, errorId: number, cutoff: string, nowSec: number): Promise<boolean> {
  const key = errorKey(projectId, errorId);
  const outcome = await conditionalDelete(key, "attribute_not_exists(pk) OR lastReceived < :c", { ":c": cutoff });
  if (outcome === "kept") return false;
  for (const prefix of ["USER#", HOUR_PREFIX, DAY_COUNT_PREFIX, TAG_PREFIX]) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await docQuery({ TableName: table(), KeyConditionExpression: "pk = :pk AND begins_with(sk, :u)", ExpressionAttributeValues: { ":pk": key.pk, ":u": prefix }, ExclusiveStartKey: startKey, ProjectionExpression: "pk, sk" });
      // An item refreshed by an event after the cutoff belongs to a re-created error: keep it.
      await Promise.all((out.Items ?? []).map((m) => conditionalDelete(m as Key, "expireAt <= :now", { ":now": nowSec })));
      startKey = out.LastEvaluatedKey;
    } while (startKey);
  }
  return outcome === "deleted";
}

export async function runRetention(opts: { now?: Date; deadline?: number; pageSize?: number } = {}): Promise<RetentionResult> {
  const now = opts.now ?? new Date();
  const cutoff = cutoffAt(now.getTime());
  const nowSec = Math.floor(now.getTime() / 1000);
  const result: RetentionResult = { deletedItems: 0, deletedErrors: 0, complete: true };
  const cutoffDay = dayOf(cutoff);
  const swept = await sweptThrough();
  // The day the cursor names is swept again (one Query) rather than trusted to the minute.
  const days = Array.from({ length: LOOKBACK_DAYS + 1 }, (_, i) => daysBefore(cutoffDay, LOOKBACK_DAYS - i)).filter((day) => !swept || day >= swept);
  // Day buckets are independent, so several are read at once.
  await mapConcurrently(days, DAYS_AT_ONCE, async (day) => {
    let startKey: Record<string, unknown> | undefined;
    do {
      if (opts.deadline && Date.now() > opts.deadline) {
        result.complete = false;
        return;
      }
      const out = await docQuery({
        TableName: table(),
        IndexName: GSI2,
        KeyConditionExpression: "gsi2pk = :d AND gsi2sk < :c",
        ExpressionAttributeValues: { ":d": dayBucketPk(day), ":c": cutoff },
        ProjectionExpression: "pk, sk, kind, projectId, errorId",
        Limit: opts.pageSize ?? 200,
        ExclusiveStartKey: startKey,
      });
      const entries = (out.Items ?? []) as Entry[];
      startKey = out.LastEvaluatedKey;
      const errors = new Map<string, [number, number]>();
      for (const e of entries) if (e.kind === "event" && e.projectId && e.errorId) errors.set(`${e.projectId}#${e.errorId}`, [e.projectId, e.errorId]);
      const purged = await Promise.all([...errors.values()].map(([p, id]) => purgeError(p, id, cutoff, nowSec)));
      result.deletedErrors += purged.filter(Boolean).length;
      const immutable = entries.filter((e) => e.pk.startsWith("ETEVENT#"));
      const movable = entries.filter((e) => !e.pk.startsWith("ETEVENT#"));
      await writeBatch(immutable.map((e) => ({ delete: { pk: e.pk, sk: e.sk } })));
      const moved = await Promise.all(movable.map((e) => conditionalDelete({ pk: e.pk, sk: e.sk }, "gsi2sk < :c", { ":c": cutoff })));
      result.deletedItems += immutable.length + moved.filter((m) => m === "deleted").length;
    } while (startKey);
  });
  if (result.complete) await recordSwept(daysBefore(cutoffDay, 1), swept, now);
  return result;
}

/** The instant before which items have expired, at `time` (epoch ms). */
const cutoffAt = (time: number) => new Date(time - RETENTION_DAYS * DAY_MS).toISOString();
const daysBefore = (day: string, n: number) => dayOf(new Date(Date.parse(day) - n * DAY_MS).toISOString());

async function sweptThrough(): Promise<string | undefined> {
  const out = await docGet({ TableName: table(), Key: retentionCursorKey, ConsistentRead: true });
  return typeof out.Item?.through === "string" ? out.Item.through : undefined;
}

/**
 * Moves the cursor forward to the last day wholly before the cutoff. Never past the real clock's
 * (a run for a given `now` in the future must not skip days still to expire), never backwards.
 */
async function recordSwept(day: string, swept: string | undefined, now: Date) {
  const realLimit = daysBefore(dayOf(cutoffAt(Date.now())), 1);
  const through = day < realLimit ? day : realLimit;
  if (swept && swept >= through) return;
  try {
    await docPut({
      TableName: table(),
      Item: { ...retentionCursorKey, through, updatedAt: now.toISOString() },
      ConditionExpression: "attribute_not_exists(through) OR through < :t",
      ExpressionAttributeValues: { ":t": through },
    });
  } catch (err) {
    if (!isConditionFailure(err)) throw err; // a concurrent run got there first
  }
}
