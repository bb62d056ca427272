/**
 * `npm start`: the whole system on this machine. Data (tables, the queue journal, executions,
 * repositories) lives under FORGELINE_DATA_DIR (default `./.data`) and survives restarts.
 *   FORGELINE_PORT (default 3000), FORGELINE_HOST (default 127.0.0.1),
 *   FORGELINE_BOOTSTRAP_ADMIN_TOKEN (the first admin's token on an empty instance).
 * `npm start -- --isolated` (or FORGELINE_ISOLATED=1): every function from its Lambda bundle, in a
 * process of its own, with only its links (`local/isolated/`).
 * Operator mistakes (folder in use, port taken, no Java, …) end in one line and exit code 1.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startRuntime } from "../local/runtime.js";
import { OperatorError, reportFatal } from "../local/operator-errors.js";
import { checkNodeVersion } from "../local/node-version.js";
import { dataDir } from "../functions/platform/config.js";
import { isolatedFromCommandLine } from "../local/isolated/index.js";

function listenPort(): number {
  const raw = process.env.FORGELINE_PORT ?? "3000";
  const port = Number(raw);
  // 0: any free port (tests and tools read the address from the data folder's runtime.json).
  if (!/^\d+$/.test(raw) || port > 65535) throw new OperatorError(`FORGELINE_PORT=${raw} is not a TCP port`, "Set a number from 1 to 65535 (0: any free port), e.g. FORGELINE_PORT=3000 npm start");
  return port;
}

async function main() {
  checkNodeVersion((line) => console.error(line));
  const dir = dataDir();
  const runtime = await startRuntime({
    dataDir: dir,
    persistent: true,
    host: process.env.FORGELINE_HOST ?? "127.0.0.1",
    port: listenPort(),
    bootstrapToken: process.env.FORGELINE_BOOTSTRAP_ADMIN_TOKEN,
    isolated: isolatedFromCommandLine(),
  });
  if (runtime.bootstrap.created && runtime.bootstrap.token) {
    const file = join(dir, "initial_root_token");
    if (!process.env.FORGELINE_BOOTSTRAP_ADMIN_TOKEN) {
      writeFileSync(file, runtime.bootstrap.token + "\n", { mode: 0o600 });
      chmodSync(file, 0o600);
      console.log(`\nCreated administrator 'root'. Its personal access token (shown once, also saved to ${file}):\n\n  ${runtime.bootstrap.token}\n`);
    } else console.log("\nCreated administrator 'root' with the token from FORGELINE_BOOTSTRAP_ADMIN_TOKEN.\n");
  }
  console.log(`Forgeline is running at ${runtime.baseUrl}  (API: ${runtime.baseUrl}/api/v4, data: ${dir})`);
  if (runtime.isolated) console.log("Isolated mode: each function runs from its Lambda bundle, in a process of its own.");
  console.log("Press Ctrl-C to stop.");
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping (draining queues, saving state)…`);
    await runtime.stop();
    console.log("Stopped.");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((err) => process.exit(reportFatal(err)));
