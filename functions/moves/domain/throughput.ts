/**
 * How fast moves copy on this instance: every replication step adds the bytes it copied and the
 * time it took to one item, so a plan can estimate how long a move of N bytes will take from what
 * this instance's storages, replicas and checksums have actually done. The same step adds its bytes
 * to the minute it ended in, and to its bulk move's progress; the finish step counts the moves that
 * finished each minute: the console's throughput chart and its bulk moves' progress read them.
 */
import { getItem, queryAll, updateItem } from "../../platform/db/table.js";
import { copyThroughputKey, MINUTE_STATS_PK, minuteStatsKey } from "../keys.js";
import { updateBulk, type BulkRef } from "./bulk-control.js";

interface Throughput {
  copiedBytes?: number;
  copyMs?: number;
}

/** A minute's statistics are kept a day (the table's TTL removes them). */
const KEEP_SECONDS = 86_400;

/** `2026-05-01T12:34`: the minute an instant falls in (UTC). */
export const minuteOf = (ms: number) => new Date(ms).toISOString().slice(0, 16);

const addToMinute = (values: Record<string, number>, update: string) => {
  const now = Date.now();
  return updateItem({ ...minuteStatsKey(minuteOf(now)), update: `${update} SET expireAt = :exp`, values: { ...values, ":exp": Math.floor(now / 1000) + KEEP_SECONDS } });
};

export async function recordCopy(bytes: number, ms: number, bulk?: BulkRef): Promise<void> {
  if (bytes <= 0 || ms <= 0) return;
  await Promise.all([
    updateItem({ ...copyThroughputKey, update: "ADD copiedBytes :b, copyMs :ms", values: { ":b": bytes, ":ms": Math.round(ms) } }),
    addToMinute({ ":b": bytes }, "ADD copiedBytes :b"),
    bulk ? updateBulk(bulk, "ADD copiedBytes :b", { ":b": bytes }) : undefined,
  ]);
}

/** Moves that reached `finished` just now. */
export async function recordFinished(moves: number): Promise<void> {
  if (moves > 0) await addToMinute({ ":n": moves }, "ADD finishedMoves :n");
}

/** Bytes per second measured so far; undefined until a move has copied something. */
export async function copyBytesPerSecond(): Promise<number | undefined> {
  const t = await getItem<Throughput>(copyThroughputKey.pk, copyThroughputKey.sk);
  return t?.copiedBytes && t.copyMs ? (t.copiedBytes / t.copyMs) * 1000 : undefined;
}

/**
 * The last `minutes` minutes, oldest first, each `[unix seconds of its start, bytes copied, moves
 * finished]` (zeros for a minute without any), from one Query of the minutes' partition.
 */
export async function lastMinutes(minutes: number, now = Date.now()): Promise<Array<[number, number, number]>> {
  const first = Math.floor(now / 60_000) * 60_000 - (minutes - 1) * 60_000;
  const items = await queryAll<{ sk: string; copiedBytes?: number; finishedMoves?: number }>({ pk: MINUTE_STATS_PK, skFrom: minuteOf(first), skTo: minuteOf(now) });
  const byMinute = new Map(items.map((i) => [i.sk, i]));
  return Array.from({ length: minutes }, (_, i) => {
    const at = first + i * 60_000;
    const item = byMinute.get(minuteOf(at));
    return [at / 1000, item?.copiedBytes ?? 0, item?.finishedMoves ?? 0];
  });
}
