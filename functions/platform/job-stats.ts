/**
 * Sidekiq's `processed` and `failed` (`GET /sidekiq/job_stats`) as this service keeps them: the
 * background workers that run jobs one batch at a time (hook deliveries, storage-move steps, group
 * deletions) add what a batch ran to one counter item, as Sidekiq counts every run of a job, retries
 * included. One write per batch, never per event; a write that fails is logged and the work goes on.
 * The item has a key of its own (`keys.ts`), apart from the `COUNT#<name>` counts of `db/table.ts`.
 */
import { updateItem } from "./db/table.js";
import { describeError, log } from "./log.js";
import { JOB_STATS_KEY } from "./keys.js";

export { JOB_STATS_KEY };

export async function countJobs(processed: number, failed = 0): Promise<void> {
  if (processed <= 0 && failed <= 0) return;
  await updateItem({ ...JOB_STATS_KEY, update: "ADD #p :p, #f :f", names: { "#p": "processed", "#f": "failed" }, values: { ":p": processed, ":f": failed } }).catch((err: unknown) =>
    log.warn("job counts not kept", describeError(err)),
  );
}
