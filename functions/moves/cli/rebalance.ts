/**
 * `npm run moves -- rebalance [--dry-run] [--tolerance N] [--concurrency N]`: spreads repositories
 * over the storages by `repository_storages_weighted`. The instance plans
 * (`GET /repository_storages/rebalance_plan`: which repository to which storage, smallest first);
 * this command prints the plan and, unless `--dry-run`, schedules each move through the
 * per-container POST (the same state machine and guards as any move), at most `--concurrency`
 * (default 4) at a time, and waits for each to end.
 */
import { CliError, type Api, type MoveRecordView } from "./client.js";
import type { WatchPace } from "./watch.js";

interface Plan {
  tolerance: number;
  total_bytes: number;
  balanced: boolean;
  storages: Array<{ name: string; weight: number; target_share: number; share_before: number; share_after: number }>;
  moves: Array<{ kind: string; id: number; from: string; to: string; bytes: number }>;
}

const PLURAL: Record<string, string> = { project: "projects", snippet: "snippets", group: "groups" };
const TERMINAL = ["finished", "failed", "cleanup failed"];

export const bytesText = (n: number) => (n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : n < 1024 ** 3 ? `${(n / 1024 ** 2).toFixed(1)} MiB` : `${(n / 1024 ** 3).toFixed(2)} GiB`);

const sharesLines = (plan: Plan, when: "share_before" | "share_after") =>
  plan.storages.map((s) => `  ${s.name.padEnd(12)} weight ${String(s.weight).padStart(3)}  target ${s.target_share.toFixed(1).padStart(5)}%  ${when === "share_before" ? "now" : "after"} ${s[when].toFixed(1).padStart(5)}%`);

export interface RebalanceOptions {
  dryRun: boolean;
  tolerance?: number;
  concurrency?: number;
}

export async function rebalance(api: Api, opts: RebalanceOptions, out: (line: string) => void, pace: WatchPace = {}): Promise<number> {
  const query = opts.tolerance === undefined ? "" : `?tolerance=${opts.tolerance}`;
  const plan = await api.get<Plan>(`/repository_storages/rebalance_plan${query}`);
  out(`Storages (${bytesText(plan.total_bytes)} in all, tolerance ${plan.tolerance} points):`);
  sharesLines(plan, "share_before").forEach((l) => out(l));
  if (!plan.moves.length) {
    out(plan.balanced ? "Balanced already: nothing to move." : "Out of balance, but no repository can move closer to the weights (too large for the tolerance, or read-only).");
    return 0;
  }
  out(`Plan: ${plan.moves.length} moves, smallest first${plan.balanced ? "" : " (the tolerance cannot be reached by these alone)"}:`);
  for (const m of plan.moves) out(`  ${m.kind} ${m.id}  ${m.from} → ${m.to}  ${bytesText(m.bytes)}`);
  sharesLines(plan, "share_after").forEach((l) => out(l));
  if (opts.dryRun) {
    out("Dry run: nothing was scheduled.");
    return 0;
  }
  const tally = { finished: 0, failed: 0, skipped: 0 };
  const queue = [...plan.moves];
  const runOne = async (m: Plan["moves"][number]) => {
    let move: MoveRecordView;
    try {
      move = await api.post<MoveRecordView>(`/${PLURAL[m.kind]}/${m.id}/repository_storage_moves`, { destination_storage_name: m.to });
    } catch (err) {
      // Changed since the plan (read-only, busy, deleted): leave it, as a bulk move skips it.
      if (!(err instanceof CliError)) throw err;
      tally.skipped++;
      out(`  skipped ${m.kind} ${m.id}: ${err.message}`);
      return;
    }
    for (;;) {
      const now = await api.get<MoveRecordView>(`/${m.kind}_repository_storage_moves/${move.id}`);
      if (TERMINAL.includes(now.state)) {
        if (now.state === "finished") tally.finished++;
        else tally.failed++;
        out(`  ${m.kind} ${m.id} → ${m.to}: move ${now.id} ${now.state}${now.error_message ? ` (${now.error_message})` : ""}`);
        return;
      }
      await new Promise((r) => setTimeout(r, pace.intervalMs ?? 1000));
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 4, queue.length)) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await runOne(next);
  });
  await Promise.all(workers);
  out(`${tally.finished} finished, ${tally.failed} failed, ${tally.skipped} skipped.`);
  const after = await api.get<Plan>(`/repository_storages/rebalance_plan${query}`);
  out(after.balanced ? "Now within tolerance:" : "Still out of tolerance:");
  sharesLines(after, "share_before").forEach((l) => out(l));
  return tally.failed || !after.balanced ? 1 : 0;
}
