/** Task `moveFail`: the failure path — each failed move ends `failed` (writable on the source) or `cleanup failed`. */
import { countJobs } from "../../platform/job-stats.js";
import { failMoves } from "../domain/completion.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveFail", async (input: Parameters<typeof failMoves>[0]) => {
  const outcome = await failMoves(input);
  // Sidekiq's processed and failed (GET /sidekiq/job_stats): each move that ended failed here is a failed job.
  const failed = outcome.moves.filter((m) => m.state !== "finished").length;
  await countJobs(failed, failed);
  return outcome;
});
