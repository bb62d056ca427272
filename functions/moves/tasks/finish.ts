/** Task `moveFinish`: `replicated → finished` for a batch's cleaned-up moves. */
import { countJobs } from "../../platform/job-stats.js";
import { finishMoves } from "../domain/completion.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveFinish", async (input: Parameters<typeof finishMoves>[0]) => {
  const batch = await finishMoves(input);
  // Sidekiq's processed (GET /sidekiq/job_stats): each move finished by this step is one job done.
  await countJobs(batch.moves.filter((m) => m.state === "finished" && !input.moves.some((i) => i.moveId === m.moveId && i.state === "finished")).length);
  return batch;
});
