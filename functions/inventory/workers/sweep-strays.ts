/**
 * Scheduled sweep of stray temporary folders and of git's leftovers (a killed push's incoming
 * objects) on every storage (`workers` kind `cron`, next to error retention; `stacks/cron.ts` gives
 * it the table and the storages only). A folder goes once it has been untouched for twice the
 * longest possible step and its owner does not run (`domain/strays.ts`), a leftover of git's once
 * nothing in it changed for as long (no push runs longer than a step); the local runtime sweeps at
 * start instead, when nothing runs.
 */
import { log } from "../../platform/log.js";
import { LONGEST_STEP_MS, sweepStrays } from "../domain/strays.js";

export async function handler() {
  const result = await sweepStrays({ minAgeMs: 2 * LONGEST_STEP_MS });
  log.info("stray folder sweep", { ...result });
  return result;
}
