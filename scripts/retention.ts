/**
 * `npm run retention`: one error-tracking retention pass, run until done (the scheduled function
 * stops at its Lambda deadline and leaves the rest to its next run).
 *
 * - With `SST_RESOURCE_Main` in the environment (e.g. under `sst shell` for a deployed stage) it
 *   works on that table.
 * - Otherwise on the local data folder (`FORGELINE_DATA_DIR`, default `./.data`): it starts the
 *   embedded stand-ins without workers, runs, and stops. Stop `npm start` first: two DynamoDB Local
 *   processes must not share one data folder. (`npm start` runs retention hourly by itself.)
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../functions/platform/config.js";
import { runRetention } from "../functions/errortracking/domain/retention.js";

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

async function main() {
  if (process.env.SST_RESOURCE_Main) return passUntilDone();
  const dir = dataDir();
  // No table yet means nothing to delete — and starting the runtime would create the first admin.
  if (!existsSync(join(dir, "dynamodb"))) return console.log(`retention: no local data in ${dir}, nothing to do`);
  const { startRuntime } = await import("../local/runtime.js");
  const runtime = await startRuntime({ dataDir: dir, persistent: true, workers: false });
  try {
    await passUntilDone();
  } finally {
    await runtime.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
