/**
 * How fast moves copy on this instance: every replication step adds the bytes it copied and the
 * time it took to one item, so a plan can estimate how long a move of N bytes will take from what
 * this instance's storages, replicas and checksums have actually done.
 */
import { getItem, updateItem } from "../../platform/db/table.js";
import { copyThroughputKey } from "../keys.js";

interface Throughput {
  copiedBytes?: number;
  copyMs?: number;
}

export async function recordCopy(bytes: number, ms: number): Promise<void> {
  if (bytes <= 0 || ms <= 0) return;
  await updateItem({ ...copyThroughputKey, update: "ADD copiedBytes :b, copyMs :ms", values: { ":b": bytes, ":ms": Math.round(ms) } });
}

/** Bytes per second measured so far; undefined until a move has copied something. */
export async function copyBytesPerSecond(): Promise<number | undefined> {
  const t = await getItem<Throughput>(copyThroughputKey.pk, copyThroughputKey.sk);
  return t?.copiedBytes && t.copyMs ? (t.copiedBytes / t.copyMs) * 1000 : undefined;
}
