/**
 * A runtime for the crash tests, in a process of its own so that a test can SIGKILL it with its
 * stand-ins, as a crash would (start and kill it with `crashable-runtime.ts`). Prints
 * `READY <base url>` once it serves. `ARM <point> <phase>` on stdin makes that fault-injection point
 * freeze forever (printing `FROZEN`), so the kill lands exactly there.
 */
import { createInterface } from "node:readline";
import { startRuntime, defaultLocalConfig } from "../../local/runtime.js";
import { injectFaults } from "../../functions/platform/fault-injection.js";

const dataDir = process.env.CRASH_DATA_DIR!;
// Instance settings the test asks for (the hosted offering, for instance) over the local defaults.
const config = { ...defaultLocalConfig(dataDir), ...(JSON.parse(process.env.CRASH_CONFIG ?? "{}") as Record<string, unknown>) };
const runtime = await startRuntime({ dataDir, persistent: true, config, bootstrapToken: process.env.CRASH_TOKEN });
console.log(`READY ${runtime.baseUrl}`);

createInterface({ input: process.stdin }).on("line", (line) => {
  const [command, point, phase] = line.trim().split(" ");
  if (command !== "ARM") return;
  injectFaults(async (at, when) => {
    if (at !== point || when !== phase) return;
    console.log(`FROZEN ${at} ${when}`);
    await new Promise(() => {});
  });
  console.log("ARMED");
});
