/**
 * GitLab's project fetch statistics (`GET /projects/:id/statistics`): how many times a project's
 * repository was fetched or cloned over HTTP each day, for the last 30 days. Each `git-upload-pack`
 * request of the project's own repository (not its wiki) adds one to the day's count, as GitLab's
 * `FetchStatisticsIncrementService` does: one atomic ADD on the day's item, no read first.
 */
import { queryAll, updateItem } from "../../platform/db/table.js";
import { dailyFetchKey } from "./keys.js";

const DAY_MS = 86_400_000;
/** The window GitLab reports: today and the 29 days before it. */
const WINDOW_DAYS = 30;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

export async function recordFetch(projectId: number, now = new Date()): Promise<void> {
  const date = dayOf(now);
  // Kept one day past the window, then DynamoDB's TTL removes it; reads bound the window themselves.
  const expireAt = Math.floor((Date.parse(date) + (WINDOW_DAYS + 1) * DAY_MS) / 1000);
  await updateItem({
    ...dailyFetchKey(projectId, date),
    update: "ADD fetchCount :one SET #date = :date, expireAt = :expire",
    names: { "#date": "date" },
    values: { ":one": 1, ":date": date, ":expire": expireAt },
  });
}

export interface FetchStatistics {
  fetches: { total: number; days: Array<{ count: number; date: string }> };
}

/** The days of the window that saw fetches, newest first, and their total. */
export async function fetchStatistics(projectId: number, now = new Date()): Promise<FetchStatistics> {
  const from = dailyFetchKey(projectId, dayOf(new Date(now.getTime() - (WINDOW_DAYS - 1) * DAY_MS)));
  const to = dailyFetchKey(projectId, dayOf(now));
  const items = await queryAll<{ fetchCount: number; date: string }>({ pk: from.pk, skFrom: from.sk, skTo: to.sk, ascending: false, projection: ["fetchCount", "date"] });
  const days = items.map((i) => ({ count: i.fetchCount, date: i.date }));
  return { fetches: { total: days.reduce((sum, d) => sum + d.count, 0), days } };
}
