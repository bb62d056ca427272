/**
 * Scheduled retention (`workers` kind `cron`, CronV2 with a 5-minute timeout in `stacks/cron.ts`).
 * Each run works until 30 s before its timeout and stops cleanly; the next run continues where the
 * index says work is left, so a backlog of millions is cleared over several runs.
 */
import type { Context } from "aws-lambda";
import { log } from "../../platform/log.js";
import { runRetention } from "../domain/retention.js";

export async function handler(_event: unknown, context?: Context) {
  const remaining = context?.getRemainingTimeInMillis?.() ?? 60_000;
  const result = await runRetention({ deadline: Date.now() + Math.max(5_000, remaining - 30_000) });
  log.info("error tracking retention", { ...result });
  return result;
}
