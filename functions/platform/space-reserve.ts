/**
 * Room kept back so that an administrator can always make room. On a 100 % full disk even a
 * deletion fails: DynamoDB Local must write (SQLite's journal, a page) to delete an item, and the
 * storage-move and queue stand-ins write their state too. So the local runtime keeps a file of
 * `RESERVE_BYTES` in the data folder (`FORGELINE_LOCAL_SPACE_RESERVE`), and what frees space (the
 * deletion endpoints, the group-deletion job, the storage-move tasks) runs with
 * `withReservedSpace`: the file is removed first when the disk is nearly full, or when the
 * operation failed for space (which it then runs once more). The runtime grows the file back as
 * space returns (`replenishReserve`), before ordinary writes can take that space. Without the
 * variable (AWS, a runtime whose table is in memory) there is no reserve and the operation just runs.
 *
 * Scheduling a move does not take the reserve (the schedulers' bundles have no room for it): on a
 * full data folder, delete something first; moves already running finish, their tasks take it.
 */
import { closeSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname } from "node:path";
import { freeBytes, isLowOnSpace, isOutOfSpace, LOW_SPACE_BYTES } from "./out-of-space.js";

/** Enough for SQLite's journal and pages of the largest deletion (a transaction of 100 items), many times over. */
export const RESERVE_BYTES = 16 * 1024 * 1024;

const reserveFile = () => process.env.FORGELINE_LOCAL_SPACE_RESERVE || undefined;

/** Removes the reserve; true when there was one to remove. */
export function releaseReserve(): boolean {
  const file = reserveFile();
  if (!file || !statSync(file, { throwIfNoEntry: false })) return false;
  rmSync(file, { force: true });
  return true;
}

export async function withReservedSpace<T>(run: () => Promise<T>): Promise<T> {
  const file = reserveFile();
  const released = !!file && isLowOnSpace(dirname(file)) && releaseReserve();
  try {
    return await run();
  } catch (err) {
    // The disk filled between the check and the write: the same operation again, with the room.
    if (released || !isOutOfSpace(err) || !releaseReserve()) throw err;
    return run();
  }
}

/**
 * Grows the reserve towards `RESERVE_BYTES`, always leaving `LOW_SPACE_BYTES` free, so a disk that
 * has room again gets its reserve back first. Random bytes, not zeros: a compressing or
 * deduplicating file system (btrfs, ZFS) would store zeros in no space at all. Run by the local
 * runtime alone, so two processes never grow it at once.
 */
export function replenishReserve(): void {
  const file = reserveFile();
  if (!file) return;
  let fd: number | undefined;
  try {
    const held = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    const grow = Math.min(RESERVE_BYTES - held, (freeBytes(dirname(file)) ?? 0) - LOW_SPACE_BYTES);
    if (grow <= 0) return;
    const chunk = randomBytes(Math.min(grow, 1024 * 1024));
    fd = openSync(file, "a");
    for (let left = grow, written = 1; left > 0 && written > 0; left -= written) written = writeSync(fd, chunk, 0, Math.min(left, chunk.length));
  } catch {
    // The disk filled meanwhile (or the folder went away): the reserve is what was written.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
