/**
 * The `frequency` graph of an error, as GitLab shows Sentry's `stats["24h"]`: events per hour over
 * the last 24 hours, from the hourly counters the consumer adds to in each event's transaction
 * (`HOUR#…` items, see `keys.ts`). One Query of at most 24 items per error: never a read per event.
 */
import { docQuery } from "../../platform/db/document.js";
import { resources } from "../../platform/resources.js";
import { hourKey, hourOf } from "./keys.js";

export const FREQUENCY_HOURS = 24;
const HOUR_MS = 3_600_000;

/** `[unix seconds of the hour's start, events]`, oldest first, ending with the current hour; empty hours count 0. */
export type Frequency = Array<[number, number]>;

export async function hourlyFrequency(projectId: number, errorId: number, now = new Date()): Promise<Frequency> {
  const last = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const hours = Array.from({ length: FREQUENCY_HOURS }, (_, i) => last - (FREQUENCY_HOURS - 1 - i) * HOUR_MS);
  const keyOf = (ms: number) => hourKey(projectId, errorId, hourOf(new Date(ms).toISOString()));
  const out = await docQuery({
    TableName: resources.mainTable(),
    KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
    ExpressionAttributeValues: { ":pk": keyOf(last).pk, ":from": keyOf(hours[0]!).sk, ":to": keyOf(last).sk },
    ProjectionExpression: "sk, eventsCount",
    Limit: FREQUENCY_HOURS,
  });
  const counts = new Map((out.Items ?? []).map((i) => [i.sk as string, Number(i.eventsCount)]));
  return hours.map((ms) => [ms / 1000, counts.get(keyOf(ms).sk) ?? 0]);
}
