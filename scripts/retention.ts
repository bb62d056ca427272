/**
 * `npm run retention`: one error-tracking retention pass, run until done (the scheduled function
 * stops at its Lambda deadline and leaves the rest to its next run).
 *
 * Which instance, as for backup (functions/backup/cli.ts): the table in `SST_RESOURCE_Main` (e.g.
 * under `sst shell` for a deployed stage); else the local data folder (`FORGELINE_DATA_DIR`, default
 * `./.data`), joining a running `npm start` there or starting the stand-ins for the pass.
 * (`npm start` also runs retention hourly by itself.)
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../functions/platform/config.js";
import { runRetention } from "../functions/errortracking/domain/retention.js";
import { openInstance, runCli, UsageError } from "../functions/backup/cli.js";

const USAGE = "npm run retention";

async function passUntilDone() {
  const total = { deletedItems: 0, deletedErrors: 0 };
  for (;;) {
    // Bounded slices, so progress shows while a large backlog is cleared.
    const result = await runRetention({ deadline: Date.now() + 60_000 });
    total.deletedItems += result.deletedItems;
    total.deletedErrors += result.deletedErrors;
    console.log(`retention: ${total.deletedItems} items and ${total.deletedErrors} errors deleted${result.complete ? " — done" : " so far…"}`);
    if (result.complete) return;
  }
}

await runCli(USAGE, async () => {
  if (process.argv.slice(2).some((a) => a !== "--")) throw new UsageError("retention takes no arguments.");
  // No table yet means nothing to delete — and starting the stand-ins would create an instance.
  if (!process.env.SST_RESOURCE_Main && !existsSync(join(dataDir(), "dynamodb"))) {
    console.log(`retention: no local data in ${dataDir()}, nothing to do`);
    return;
  }
  const instance = await openInstance({ mustExist: true });
  try {
    console.error(`Retention on ${instance.describe}`);
    await passUntilDone();
  } finally {
    await instance.close();
  }
});
