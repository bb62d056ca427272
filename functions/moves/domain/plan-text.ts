/**
 * A move plan and a rebalance plan in words, as an operator reads them: the lines `npm run moves --
 * plan` and `rebalance --dry-run` print, which the console's plan page shows too (the same numbers,
 * from the same function). Pure: no I/O.
 */
import type { MovePlan } from "./move-plan.js";
import type { RebalancePlan } from "./rebalance-plan.js";

export const bytesText = (n: number) => (n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : n < 1024 ** 3 ? `${(n / 1024 ** 2).toFixed(1)} MiB` : `${(n / 1024 ** 3).toFixed(2)} GiB`);

/** A duration as an operator says it: seconds under a minute, minutes under an hour, then hours. */
export function durationText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.ceil(s / 60)} min`;
  const hours = Math.floor(s / 3600);
  const minutes = Math.ceil((s % 3600) / 60);
  return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
}

/** A storage-wide move's plan as an operator reads it. */
export function describeMovePlan(plan: MovePlan): string[] {
  const duration =
    plan.estimated_seconds === null
      ? "unknown until a move has run on this instance"
      : `about ${durationText(plan.estimated_seconds)} at ${bytesText(plan.copy_bytes_per_second!)}/s measured here`;
  return [
    `Moving everything off ${plan.source_storage_name} to ${plan.destination_storage_name}:`,
    ...plan.types.map((t) => `  ${`${t.type}s`.padEnd(9)} ${String(t.repositories).padStart(6)} repositories  ${bytesText(t.bytes).padStart(12)}`),
    `  total     ${bytesText(plan.total_bytes).padStart(33)}; needs ${bytesText(plan.needed_bytes)} free with the margin`,
    ...plan.destination_replicas.map((r) => `  ${plan.destination_storage_name} replica ${r.replica}: ${r.free_bytes === null ? "free space unknown (its folder cannot be read)" : `${bytesText(r.free_bytes)} free`}`),
    `Estimated duration: ${duration}.`,
    plan.fits ? "It fits." : `It does not fit: scheduling it would be refused.`,
  ];
}

type SharesPlan = Pick<RebalancePlan, "storages">;

/** Each storage's weight, target share and share now (`share_before`) or once the plan ran (`share_after`). */
export const sharesLines = (plan: SharesPlan, when: "share_before" | "share_after") =>
  plan.storages.map((s) => `  ${s.name.padEnd(12)} weight ${String(s.weight).padStart(3)}  target ${s.target_share.toFixed(1).padStart(5)}%  ${when === "share_before" ? "now" : "after"} ${s[when].toFixed(1).padStart(5)}%`);

/** What `rebalance --dry-run` prints of a plan (before its last line, "Dry run: nothing was scheduled."). */
export function describeRebalancePlan(plan: Pick<RebalancePlan, "tolerance" | "total_bytes" | "balanced" | "storages" | "moves">): string[] {
  const lines = [`Storages (${bytesText(plan.total_bytes)} in all, tolerance ${plan.tolerance} points):`, ...sharesLines(plan, "share_before")];
  if (!plan.moves.length) {
    return [...lines, plan.balanced ? "Balanced already: nothing to move." : "Out of balance, but no repository can move closer to the weights (too large for the tolerance, or read-only)."];
  }
  return [
    ...lines,
    `Plan: ${plan.moves.length} moves, smallest first${plan.balanced ? "" : " (the tolerance cannot be reached by these alone)"}:`,
    ...plan.moves.map((m) => `  ${m.kind} ${m.id}  ${m.from} → ${m.to}  ${bytesText(m.bytes)}`),
    ...sharesLines(plan, "share_after"),
  ];
}
