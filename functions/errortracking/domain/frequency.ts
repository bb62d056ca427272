/**
 * The graphs of an error: events per hour over the last 24 hours (`frequency`, as GitLab shows
 * Sentry's `stats["24h"]`) and events per day over the last 30 days (Sentry's `stats["30d"]`), from
 * the counters the consumer adds to in each event's transaction (`HOUR#…` and `DAY#…` items, see
 * `keys.ts`). One Query of at most 24 or 30 items per error: never a read per event.
 */
import { docQuery } from "../../platform/db/document.js";
import { resources } from "../../platform/resources.js";
import { dayCountKey, dayOf, hourKey, hourOf } from "./keys.js";

export const FREQUENCY_HOURS = 24;
export const FREQUENCY_DAYS = 30;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** `[unix seconds of the bucket's start, events]`, oldest first, ending with the current one; empty buckets count 0. */
export type Frequency = Array<[number, number]>;

/** `count` buckets of `size` ms ending with the one `now` is in, read as one bounded range of counters. */
async function bucketCounts(count: number, size: number, skOf: (startMs: number) => { pk: string; sk: string }, now: Date): Promise<Frequency> {
  const last = Math.floor(now.getTime() / size) * size;
  const starts = Array.from({ length: count }, (_, i) => last - (count - 1 - i) * size);
  const out = await docQuery({
    TableName: resources.mainTable(),
    KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
    ExpressionAttributeValues: { ":pk": skOf(last).pk, ":from": skOf(starts[0]!).sk, ":to": skOf(last).sk },
    ProjectionExpression: "sk, eventsCount",
    Limit: count,
  });
  const counts = new Map((out.Items ?? []).map((i) => [i.sk as string, Number(i.eventsCount)]));
  return starts.map((ms) => [ms / 1000, counts.get(skOf(ms).sk) ?? 0]);
}

export function hourlyFrequency(projectId: number, errorId: number, now = new Date()): Promise<Frequency> {
  return bucketCounts(FREQUENCY_HOURS, HOUR_MS, (ms) => hourKey(projectId, errorId, hourOf(new Date(ms).toISOString())), now);
}

export function dailyFrequency(projectId: number, errorId: number, now = new Date()): Promise<Frequency> {
  return bucketCounts(FREQUENCY_DAYS, DAY_MS, (ms) => dayCountKey(projectId, errorId, dayOf(new Date(ms).toISOString())), now);
}
