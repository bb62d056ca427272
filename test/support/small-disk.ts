/**
 * A small file system to fill for real: a tmpfs mounted on a fresh folder under the OS temporary
 * folder (mounting needs root, which CI has), filled by a file that takes every free byte and
 * emptied by removing it. Nothing is ever written to fill the machine's own disk. Where mounting is
 * not allowed (or `FORGELINE_TEST_NO_MOUNT=1`), `mountSmallDisk` answers undefined and the caller
 * falls back to injected faults.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freeBytes } from "../../functions/platform/out-of-space.js";

export interface SmallDisk {
  /** The mount point, an empty folder on the small file system. */
  dir: string;
  /** Takes free space until `leave` bytes (default none) are left, whatever was free before. */
  fill(leave?: number): void;
  /** Gives back everything `fill` took. */
  empty(): void;
  /** The bytes `fill` holds. */
  filled(): number;
  unmount(): Promise<void>;
}

export function mountSmallDisk(bytes: number): SmallDisk | undefined {
  if (process.env.FORGELINE_TEST_NO_MOUNT === "1") return undefined;
  const dir = mkdtempSync(join(tmpdir(), "forgeline-small-disk-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${bytes},mode=0700`, "tmpfs", dir], { stdio: "pipe" });
  if (mounted.status !== 0) {
    rmdirSync(dir);
    return undefined;
  }
  const filler = join(dir, "filler");
  return {
    dir,
    fill(leave = 0) {
      const fd = openSync(filler, "a");
      try {
        const chunk = Buffer.alloc(1024 * 1024, 0xa5);
        for (let room = (freeBytes(dir) ?? 0) - leave; room > 0; room = (freeBytes(dir) ?? 0) - leave) writeSync(fd, chunk, 0, Math.min(chunk.length, room));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
      } finally {
        closeSync(fd);
      }
    },
    empty: () => rmSync(filler, { force: true }),
    filled: () => statSync(filler, { throwIfNoEntry: false })?.size ?? 0,
    async unmount() {
      // The runtime's child processes may take a moment to let go of their files.
      for (let attempt = 0; ; attempt++) {
        const out = spawnSync("umount", attempt < 50 ? [dir] : ["-l", dir], { stdio: "pipe" });
        if (out.status === 0) break;
        if (attempt >= 50) throw new Error(`could not unmount ${dir}: ${out.stderr}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      rmdirSync(dir);
    },
  };
}
