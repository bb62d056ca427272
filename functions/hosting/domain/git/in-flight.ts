/**
 * Files inside a repository that are writes in flight, not repository data: lock files, our
 * temporary names, and git's own temporary objects. Every copy of a repository (replicas, storage
 * moves, forks, snapshots, backups) leaves them out.
 *
 * Git's matter most, because a push killed mid-way (kill -9, a Lambda's timeout) leaves them for
 * good and they are as big as the push: receive-pack keeps a push's objects in a quarantine folder,
 * `objects/tmp_objdir-incoming-<random>`, until its refs move (index-pack streams the pack into it
 * as `pack/tmp_pack_<random>`, then writes `pack/tmp_idx_<random>`), and git names every pack file
 * it is still writing `objects/pack/tmp_<kind>_<random>`. Nothing removes them once their process
 * is gone (`git gc` would, two weeks later, but gc never runs here). They are never data:
 * quarantined objects become the repository's only when git moves them out, and no reader opens a
 * `tmp_` file.
 */
import { lstat, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { listDir, TEMP_PREFIX } from "./fs-util.js";
import { GIT_TEMP_PREFIX } from "./git-fs.js";

/** `objects/tmp_objdir-…` (any tmp_objdir, not only receive-pack's `incoming`) and `objects/pack/tmp_…`. */
const GIT_LEFTOVER = /^objects\/(?:tmp_objdir-[^/]+|pack\/tmp_[^/]+)$/;

/** Whether `rel` (a path relative to the repository, `/`-separated) is a write in flight. */
export function isInFlight(rel: string): boolean {
  const name = basename(rel);
  return name.startsWith(TEMP_PREFIX) || name.startsWith(GIT_TEMP_PREFIX) || name.endsWith(".lock") || GIT_LEFTOVER.test(rel);
}

export interface GitLeftover {
  /** Absolute path of the quarantine folder or temporary pack file. */
  path: string;
  /** The latest change of it or anything in it, epoch ms: a push still running keeps writing. */
  touchedAt: number;
}

async function lastChange(path: string): Promise<number> {
  const s = await lstat(path).catch(() => undefined);
  if (!s) return 0;
  let latest = Math.max(s.mtimeMs, s.ctimeMs);
  if (s.isDirectory()) for (const entry of await listDir(path)) latest = Math.max(latest, await lastChange(join(path, entry.name)));
  return latest;
}

/** Git's quarantine folders and temporary pack files in one repository (two folder listings). */
export async function findGitLeftovers(gitdir: string): Promise<GitLeftover[]> {
  const candidates = [
    ...(await listDir(join(gitdir, "objects"))).map((e) => `objects/${e.name}`),
    ...(await listDir(join(gitdir, "objects", "pack"))).map((e) => `objects/pack/${e.name}`),
  ].filter((rel) => GIT_LEFTOVER.test(rel));
  return Promise.all(candidates.map(async (rel) => ({ path: join(gitdir, rel), touchedAt: await lastChange(join(gitdir, rel)) })));
}

export interface LeftoverSweep {
  /** Only leftovers untouched for this long; 0 when no push of the repository can be running. */
  minAgeMs: number;
  now?: number;
}

/** Removes a leftover if it is old enough; whether it did. */
export async function removeIfStale(leftover: GitLeftover, opts: LeftoverSweep): Promise<boolean> {
  if ((opts.now ?? Date.now()) - leftover.touchedAt < opts.minAgeMs) return false;
  await rm(leftover.path, { recursive: true, force: true });
  return true;
}

/** Removes the repository's leftovers old enough; how many it removed. */
export async function removeGitLeftovers(gitdir: string, opts: LeftoverSweep): Promise<number> {
  const removed = await Promise.all((await findGitLeftovers(gitdir)).map((leftover) => removeIfStale(leftover, opts)));
  return removed.filter(Boolean).length;
}
