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
import type { RebalancePlan } from "../domain/rebalance-plan.js";
import { bytesText, describeRebalancePlan, sharesLines } from "../domain/plan-text.js";

type Plan = Pick<RebalancePlan, "tolerance" | "total_bytes" | "balanced" | "storages" | "moves">;

const PLURAL: Record<string, string> = { project: "projects", snippet: "snippets", group: "groups" };
const TERMINAL = ["finished", "failed", "cleanup failed"];

export { bytesText };

export interface RebalanceOptions {
  dryRun: boolean;
  tolerance?: number;
  concurrency?: number;
}

export async function rebalance(api: Api, opts: RebalanceOptions, out: (line: string) => void, pace: WatchPace = {}): Promise<number> {
  const query = opts.tolerance === undefined ? "" : `?tolerance=${opts.tolerance}`;
  const plan = await api.get<Plan>(`/repository_storages/rebalance_plan${query}`);
  describeRebalancePlan(plan).forEach((line) => out(line));
  if (!plan.moves.length) return 0;
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
