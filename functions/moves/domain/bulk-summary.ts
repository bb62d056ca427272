/**
 * The end of a bulk execution: what became of the moves it scheduled, counted from their records
 * (so a run the local runner restarted counts each move once), and how many repositories it skipped.
 * This is the execution's output; when any move failed, the execution ends FAILED with the same
 * summary as its cause (GitLab has no such view; it is what an operator expects of a job that did
 * not do all it was asked).
 */
import { kindInfo } from "./containers.js";
import type { BulkInput } from "./execution.js";
import { isTerminal, movesCreatedSince } from "./records.js";
import { CANCELED_MESSAGE, recordBulkEnded, updateBulk } from "./bulk-control.js";

export interface BulkSummary {
  scheduled: number;
  finished: number;
  /** `failed` and `cleanup failed`. */
  failed: number;
  skipped: number;
  /** Failed because an administrator canceled the bulk move before they started (counted in `failed` too). */
  canceled: number;
  /** The first failed moves, each with its error, as the move records say. */
  failedMoves: Array<{ id: number; state: string; error: string | null }>;
  summary: string;
}

const LISTED = 20;

export async function summariseBulk(input: { bulk: BulkInput["bulk"]; skipped?: number; executionName: string }): Promise<BulkSummary> {
  const { kind, source, scheduledAt } = input.bulk;
  // Every page is done: cancel and concurrency have nothing left to act on.
  if (scheduledAt) await recordBulkEnded(kind, source, scheduledAt);
  const mine = (await movesCreatedSince(kind, scheduledAt ?? new Date(0).toISOString())).filter((m) => m.bulkExecution === input.executionName).reverse();
  const failed = mine.filter((m) => isTerminal(m.state) && m.state !== "finished");
  const canceled = failed.filter((m) => m.errorMessage === CANCELED_MESSAGE).length;
  const counts = { scheduled: mine.length, finished: mine.filter((m) => m.state === "finished").length, failed: failed.length, skipped: input.skipped ?? 0, canceled };
  // What the console shows of it from now on, instead of counting its moves again.
  await updateBulk({ kind, source, scheduledAt }, "SET outcome = :o", { ":o": counts });
  const what = `${kindInfo[kind].repositoryType} repository moves off ${source}`;
  const tail = `${counts.finished} finished, ${counts.skipped} skipped${canceled ? `, ${canceled} canceled by an administrator` : ""}`;
  const summary = counts.failed
    ? `${counts.failed} of ${counts.scheduled} ${what} failed (${tail}): ${failed
        .slice(0, LISTED)
        .map((m) => `move ${m.id} ${m.state}: ${m.errorMessage ?? "no message"}`)
        .join("; ")}${failed.length > LISTED ? `; and ${failed.length - LISTED} more` : ""}`
    : `${counts.scheduled} ${what} scheduled (${tail})`;
  return { ...counts, failedMoves: failed.slice(0, LISTED).map((m) => ({ id: m.id, state: m.state, error: m.errorMessage })), summary };
}
