/**
 * Stray folders: the temporary siblings of repositories (`<repo>.tmp_forgeline_<owner>_<hex>`, with
 * `.deleting` or `.replaced` for doomed copies) that a writer killed mid-way leaves behind — a
 * move's partial copy on each replica, a source copy renamed for deletion. Each is a full copy of a
 * repository. And git's leftovers inside repositories (`in-flight.ts`): the quarantine folder and
 * temporary pack files of a push killed mid-way, as big as the push. Both are reported
 * (`npm run inventory`) and swept:
 * - by the local runtime when it starts, before anything runs (every such folder then belongs to a
 *   process that is gone);
 * - on AWS by a scheduled function (`workers/sweep-strays.ts`), which removes those untouched for
 *   longer than the longest possible step and whose owner does not run: a move that ended, or any
 *   other writer (a write, a push included, runs within one invocation, far shorter than that).
 */
import { lstat, rm } from "node:fs/promises";
import { join } from "node:path";
import { instanceConfig } from "../../platform/config.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import { directorySize, listDir, parseTempSibling } from "../../hosting/domain/git/fs-util.js";
import { findGitLeftovers, removeIfStale, type GitLeftover } from "../../hosting/domain/git/in-flight.js";
import { storageRoots } from "../../hosting/domain/git/storage.js";
import { findMove, isTerminal, ownerMove } from "../../moves/domain/records.js";

/** Lambda's limit, and so the longest a step that writes to a storage can run. */
export const LONGEST_STEP_MS = 15 * 60_000;

export interface StrayFolder {
  storage: string;
  path: string;
  owner: string;
  purpose: "copy" | "deleting" | "replaced";
  /** Last change of the folder itself (its creation, the rename that doomed it), epoch ms. */
  touchedAt: number;
}

export interface StrayGitLeftover extends GitLeftover {
  storage: string;
}

export interface Strays {
  folders: StrayFolder[];
  gitLeftovers: StrayGitLeftover[];
}

/** Repositories end in `.git` (git's leftovers are inside them); every other folder is a shard folder to look into. */
async function walk(storage: string, dir: string, out: Strays, depth: number): Promise<void> {
  for (const entry of await listDir(dir)) {
    if (!entry.isDirectory) continue;
    const path = join(dir, entry.name);
    const temp = parseTempSibling(entry.name);
    if (temp) {
      const s = await lstat(path).catch(() => undefined);
      if (s) out.folders.push({ storage, path, ...temp, touchedAt: Math.max(s.mtimeMs, s.ctimeMs) });
    } else if (entry.name.endsWith(".git")) {
      for (const leftover of await findGitLeftovers(path)) out.gitLeftovers.push({ storage, ...leftover });
    } else if (depth < 6) {
      await walk(storage, path, out, depth + 1);
    }
  }
}

/** Every stray folder and git leftover on every replica of every configured storage. */
export async function findStrays(): Promise<Strays> {
  const out: Strays = { folders: [], gitLeftovers: [] };
  for (const name of Object.keys(instanceConfig().storages)) {
    for (const root of storageRoots(name)) await walk(name, root, out, 0);
  }
  return out;
}

export interface StrayTotals {
  count: number;
  size_bytes: number;
}

/** Bytes of a folder's files, or of a file (a temporary pack file); 0 once it is gone. */
async function bytesAt(path: string): Promise<number> {
  const s = await lstat(path).catch(() => undefined);
  return !s ? 0 : s.isDirectory() ? directorySize(path) : s.size;
}

/** Count and bytes of what `found` holds on each storage (all replicas together). */
async function totalsByStorage(found: Array<{ storage: string; path: string }>): Promise<Map<string, StrayTotals>> {
  const sizes = await mapConcurrently(found, 8, (s) => bytesAt(s.path));
  const totals = new Map<string, StrayTotals>();
  found.forEach((s, i) => {
    const t = totals.get(s.storage) ?? { count: 0, size_bytes: 0 };
    totals.set(s.storage, { count: t.count + 1, size_bytes: t.size_bytes + sizes[i]! });
  });
  return totals;
}

/** Count and bytes of the stray folders and of git's leftovers on each storage. */
export async function strayTotals(): Promise<{ folders: Map<string, StrayTotals>; gitLeftovers: Map<string, StrayTotals> }> {
  const strays = await findStrays();
  const [folders, gitLeftovers] = await Promise.all([totalsByStorage(strays.folders), totalsByStorage(strays.gitLeftovers)]);
  return { folders, gitLeftovers };
}

/** Whether the owner of a folder may still be working on it: only a move that has not ended can. */
async function ownerMayRun(owner: string): Promise<boolean> {
  const ref = ownerMove(owner);
  const move = ref && (await findMove(ref.kind, ref.moveId));
  return !!move && !isTerminal(move.state);
}

export interface SweepOptions {
  /** Only folders untouched for this long; 0 when nothing can be running (the local runtime's start). */
  minAgeMs: number;
  now?: number;
}

export interface SweepResult {
  removed: number;
  kept: number;
  /** Git's leftovers (a killed push's quarantine folders and temporary pack files). */
  gitLeftoversRemoved: number;
  gitLeftoversKept: number;
}

/**
 * Removes the stray folders old enough whose owner does not run, and git's leftovers old enough
 * (they name no owner; a push runs within one invocation, so age alone tells); returns the counts.
 */
export async function sweepStrays(opts: SweepOptions): Promise<SweepResult> {
  const now = opts.now ?? Date.now();
  const strays = await findStrays();
  let removed = 0;
  let kept = 0;
  await mapConcurrently(strays.folders, 4, async (stray) => {
    const old = now - stray.touchedAt >= opts.minAgeMs;
    if (!old || (opts.minAgeMs > 0 && (await ownerMayRun(stray.owner)))) return void kept++;
    await rm(stray.path, { recursive: true, force: true });
    removed++;
  });
  const gone = await mapConcurrently(strays.gitLeftovers, 4, (leftover) => removeIfStale(leftover, { minAgeMs: opts.minAgeMs, now }));
  const gitLeftoversRemoved = gone.filter(Boolean).length;
  return { removed, kept, gitLeftoversRemoved, gitLeftoversKept: gone.length - gitLeftoversRemoved };
}
