/**
 * Stray folders: the temporary siblings of repositories (`<repo>.tmp_forgeline_<owner>_<hex>`, with
 * `.deleting` or `.replaced` for doomed copies) that a writer killed mid-way leaves behind — a
 * move's partial copy on each replica, a source copy renamed for deletion. Each is a full copy of a
 * repository, so they are reported (`npm run inventory`) and swept:
 * - by the local runtime when it starts, before anything runs (every such folder then belongs to a
 *   process that is gone);
 * - on AWS by a scheduled function (`workers/sweep-strays.ts`), which removes those untouched for
 *   longer than the longest possible step and whose owner does not run: a move that ended, or any
 *   other writer (a write runs within one request, far shorter than that).
 */
import { lstat, rm } from "node:fs/promises";
import { join } from "node:path";
import { instanceConfig } from "../../platform/config.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import { directorySize, listDir, parseTempSibling } from "../../hosting/domain/git/fs-util.js";
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

/** Repositories end in `.git`; every other folder on a storage is a shard folder to look into. */
async function walk(storage: string, dir: string, out: StrayFolder[], depth: number): Promise<void> {
  for (const entry of await listDir(dir)) {
    if (!entry.isDirectory) continue;
    const path = join(dir, entry.name);
    const temp = parseTempSibling(entry.name);
    if (temp) {
      const s = await lstat(path).catch(() => undefined);
      if (s) out.push({ storage, path, ...temp, touchedAt: Math.max(s.mtimeMs, s.ctimeMs) });
    } else if (!entry.name.endsWith(".git") && depth < 6) {
      await walk(storage, path, out, depth + 1);
    }
  }
}

/** Every stray folder on every replica of every configured storage. */
export async function findStrays(): Promise<StrayFolder[]> {
  const out: StrayFolder[] = [];
  for (const [name, storage] of Object.entries(instanceConfig().storages)) {
    for (const root of storage.kind === "local" ? [storage.path] : storage.replicas) await walk(name, root, out, 0);
  }
  return out;
}

/** Count and bytes of the stray folders on each storage (all replicas together). */
export async function strayTotals(): Promise<Map<string, { count: number; size_bytes: number }>> {
  const strays = await findStrays();
  const sizes = await mapConcurrently(strays, 8, (s) => directorySize(s.path));
  const totals = new Map<string, { count: number; size_bytes: number }>();
  strays.forEach((s, i) => {
    const t = totals.get(s.storage) ?? { count: 0, size_bytes: 0 };
    totals.set(s.storage, { count: t.count + 1, size_bytes: t.size_bytes + sizes[i]! });
  });
  return totals;
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

/** Removes the stray folders old enough whose owner does not run; returns what it removed. */
export async function sweepStrays(opts: SweepOptions): Promise<{ removed: number; kept: number }> {
  const now = opts.now ?? Date.now();
  let removed = 0;
  let kept = 0;
  await mapConcurrently(await findStrays(), 4, async (stray) => {
    const old = now - stray.touchedAt >= opts.minAgeMs;
    if (!old || (opts.minAgeMs > 0 && (await ownerMayRun(stray.owner)))) return void kept++;
    await rm(stray.path, { recursive: true, force: true });
    removed++;
  });
  return { removed, kept };
}
