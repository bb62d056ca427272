/**
 * A restore's staging area: one folder on every storage root (each replica's directory of a
 * cluster), named as the temporary siblings writers leave (`restore.tmp_forgeline_restore-<pid>_<hex>`),
 * so that what knows those — the stray sweep at `npm start` and on a schedule, the inventory, the
 * refs reader — knows it too. Everything is assembled there first: each repository under `new/`
 * (its relative path inside), the target's own repositories set aside under `old/` while the archive
 * replaces them, the table items in a file. Being on the same file system as the storage, each
 * repository goes live with one rename. No item ever points into it, so nothing in it is served.
 *
 * The folders are touched every `HEARTBEAT_MS` while the restore runs: the scheduled sweep removes
 * only strays untouched for far longer, and the next restore only those whose process is gone or
 * that went stale, so a running restore's staging area is never swept from under it.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, utimes } from "node:fs/promises";
import { dirname, join, normalize } from "node:path";
import { TEMP_PREFIX } from "../hosting/domain/git/fs-util.js";
import { storageRoots } from "../hosting/domain/git/storage.js";
import { findStrays } from "../inventory/domain/strays.js";
import { instanceConfig } from "../platform/config.js";
import { processRunning } from "../platform/process-alive.js";
import { BackupError } from "./errors.js";

const HEARTBEAT_MS = 30_000;
/** A staging area untouched this long belongs to no running restore. */
const STALE_MS = 10 * HEARTBEAT_MS;
const OWNER = /^restore-(\d+)$/;

export class StagingArea {
  private asides = 0;

  private constructor(
    readonly name: string,
    private readonly roots: string[],
    private readonly heartbeat: NodeJS.Timeout,
  ) {}

  static async open(): Promise<StagingArea> {
    const name = `restore.${TEMP_PREFIX}restore-${process.pid}_${randomBytes(6).toString("hex")}`;
    const roots = [...new Set(Object.keys(instanceConfig().storages).flatMap(storageRoots).map((root) => normalize(root)))];
    await Promise.all(roots.map((root) => mkdir(join(root, name), { recursive: true })));
    const touch = () => {
      const now = new Date();
      for (const root of roots) void utimes(join(root, name), now, now).catch(() => undefined);
    };
    const heartbeat = setInterval(touch, HEARTBEAT_MS);
    heartbeat.unref();
    return new StagingArea(name, roots, heartbeat);
  }

  /** Where a repository is assembled, on every replica of its storage. */
  staged(storage: string, relativePath: string): string[] {
    return storageRoots(storage).map((root) => join(root, this.name, "new", relativePath));
  }

  /** Moves a live folder out of the way, to a fresh place on its own root; returns that place. */
  async setAside(path: string): Promise<string> {
    const root = this.roots.find((r) => path.startsWith(`${r}/`));
    if (!root) throw new Error(`${path} is on no storage root`);
    const aside = join(root, this.name, "old", String(this.asides++));
    await mkdir(dirname(aside), { recursive: true });
    await rename(path, aside);
    return aside;
  }

  /** A file for the staged table items (on the first storage root). */
  file(name: string): string {
    return join(this.roots[0]!, this.name, name);
  }

  /** Best effort: what cannot be removed now is a stray the sweeps remove later (it went stale). */
  async remove(): Promise<void> {
    clearInterval(this.heartbeat);
    await Promise.all(this.roots.map((root) => rm(join(root, this.name), { recursive: true, force: true }).catch(() => undefined)));
  }
}

/**
 * Removes what restores killed earlier left (their process is gone, or their area went stale);
 * refuses to run beside a restore that is still writing into this instance.
 */
export async function removeLeftoverStaging(now = Date.now()): Promise<void> {
  const areas = (await findStrays()).folders.filter((s) => OWNER.test(s.owner));
  for (const area of areas) {
    const pid = Number(OWNER.exec(area.owner)![1]);
    if (pid !== process.pid && processRunning(pid) && now - area.touchedAt < STALE_MS) {
      throw new BackupError(`another restore (pid ${pid}) is writing into this instance (${area.path}); let it finish first. Nothing was restored`);
    }
  }
  await Promise.all(areas.map((area) => rm(area.path, { recursive: true, force: true })));
}
