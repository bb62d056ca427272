/**
 * `watch`: a live progress bar per repository type — counts per state of the moves scheduled since a
 * baseline — until none is in progress (and, with a source storage, none of that type remains there
 * or nothing changed for a while: what is left was skipped). Then each failed move's error, and what
 * stays on the source: failed moves' repositories and skipped ones, each counted once.
 */
import { movesSince, remainingOn, type Api, type MoveRecordView } from "./client.js";

const IN_PROGRESS = ["initial", "scheduled", "started", "replicated"];
const FAILED = ["failed", "cleanup failed"];
const ON_SOURCE = ["initial", "scheduled", "started", "failed"];

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What is left on the source once nothing runs, said plainly: failed moves, then skipped repositories. */
export function whatStays(kind: string, source: string, moves: MoveRecordView[], remaining: number): string[] {
  const failed = moves.filter((m) => m.state === "failed").length;
  const skipped = Math.max(0, remaining - failed);
  return [
    ...(failed ? [`${count(failed, `${kind} move`, `${kind} moves`)} failed (see above); ${failed === 1 ? "its repository stays" : "their repositories stay"} on ${source}.`] : []),
    ...(skipped ? [`${count(skipped, `${kind} repository was`, `${kind} repositories were`)} skipped (read-only or busy) and ${skipped === 1 ? "remains" : "remain"} on ${source}; schedule again to retry.`] : []),
  ];
}

export interface Watched {
  kind: string;
  since: number;
  source?: string;
}

export function progressLine(kind: string, moves: MoveRecordView[], remaining: number | undefined, width = 30): string {
  const counts = new Map<string, number>();
  for (const m of moves) counts.set(m.state, (counts.get(m.state) ?? 0) + 1);
  const done = moves.filter((m) => !IN_PROGRESS.includes(m.state)).length;
  // Repositories still on the source that no move covers yet belong to the total too. Moves before
  // the switch, and failed ones (back on the source), are on the source already: counted once, as
  // moves (a `replicated` or `cleanup failed` one has switched its repository away).
  const onSourceWithMove = moves.filter((m) => ON_SOURCE.includes(m.state)).length;
  const waiting = Math.max(0, (remaining ?? 0) - onSourceWithMove);
  const total = moves.length + waiting;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const states = [...counts].map(([state, n]) => `${state} ${n}`).join(" · ") || "no moves yet";
  return `${`${kind}s`.padEnd(9)} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total}  ${states}`;
}

/** How often to poll, and after how many unchanged polls repositories left on the source count as skipped. */
export interface WatchPace {
  intervalMs?: number;
  idlePolls?: number;
}

export async function watch(api: Api, targets: Watched[], out: (line: string) => void, opts: WatchPace = {}) {
  const live = process.stdout.isTTY && out === console.log;
  let printed = 0;
  let idle = 0;
  let previous = "";
  for (;;) {
    const rows = await Promise.all(
      targets.map(async (t) => ({ t, moves: await movesSince(api, t.kind, t.since), remaining: t.source ? (await remainingOn(api, t.source))[t.kind] : undefined })),
    );
    const lines = rows.map((r) => progressLine(r.t.kind, r.moves, r.remaining));
    const snapshot = lines.join("\n");
    if (live && printed) process.stdout.write(`\x1b[${printed}A\x1b[J`);
    if (live || snapshot !== previous) lines.forEach((l) => out(l));
    printed = lines.length;
    idle = snapshot === previous ? idle + 1 : 0;
    previous = snapshot;
    const running = rows.some((r) => r.moves.some((m) => IN_PROGRESS.includes(m.state)));
    const leftBehind = rows.some((r) => (r.remaining ?? 0) > 0);
    if (!running && (!leftBehind || idle >= (opts.idlePolls ?? 10))) {
      const failed = rows.flatMap((r) => r.moves.filter((m) => FAILED.includes(m.state)).map((m) => ({ kind: r.t.kind, m })));
      for (const { kind, m } of failed) out(`${kind} move ${m.id} ${m.state}: ${m.error_message ?? "(no message)"}`);
      for (const r of rows) if (r.t.source && r.remaining) whatStays(r.t.kind, r.t.source, r.moves, r.remaining).forEach((line) => out(line));
      return { failed: failed.length, remaining: rows.reduce((n, r) => n + (r.remaining ?? 0), 0) };
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 1000));
  }
}
