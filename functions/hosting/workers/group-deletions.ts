/**
 * The job behind `DELETE /groups/:id` of a group with projects or subgroups (`workers` kind `cron`,
 * every minute; `stacks/cron.ts` gives it the table and the storages). Each run deletes what every
 * pending group holds, then the group, and takes no new group after 45 s, so one run ends before
 * the next starts; what waits for a storage move, or for time, is left to the next run
 * (`domain/group-deletion.ts`).
 */
import type { Context } from "aws-lambda";
import { log } from "../../platform/log.js";
import { withReservedSpace } from "../../platform/space-reserve.js";
import { runGroupDeletions } from "../domain/group-deletion.js";
import { countJobs } from "../../platform/job-stats.js";

const RUN_BUDGET_MS = 45_000;

export async function handler(_event: unknown, context?: Context) {
  const remaining = context?.getRemainingTimeInMillis?.() ?? 60_000;
  const deadline = Date.now() + Math.min(RUN_BUDGET_MS, Math.max(5_000, remaining - 30_000));
  // Deleting is how room is made: it runs with the space reserve, so a full disk does not stop it.
  const result = await withReservedSpace(() => runGroupDeletions({ deadline }));
  if (result.deletedGroups || result.deletedProjects || result.pending) log.info("group deletions", { ...result });
  // Sidekiq's processed (GET /sidekiq/job_stats): each group deleted is one job done.
  await countJobs(result.deletedGroups);
  return result;
}
