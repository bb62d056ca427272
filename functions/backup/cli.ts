/**
 * What the operator CLIs (`scripts/backup.ts`, `restore.ts`, `inventory.ts`) share: finding the
 * instance to work on, argument parsing and error reporting. Only scripts import this module (it
 * reaches into `local/`); no Lambda handler does.
 *
 * Which instance:
 * - `SST_RESOURCE_Main` already set (e.g. `npx sst shell --stage production -- npm run backup -- f`
 *   on a host that mounts the EFS storages, with FORGELINE_CONFIG_JSON): that table and those
 *   storages, through the AWS SDK as they are configured — the AWS path.
 * - otherwise the local data folder (FORGELINE_DATA_DIR, default `./.data`): a running `npm start`
 *   there is JOINED (its `runtime.json` gives the stand-ins' endpoints and the configuration), else
 *   this process starts its own stand-ins on the folder (no workers; their HTTP port is unused) and
 *   stops them when done. Never two DynamoDB Local processes on one folder.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { dataDir, resetInstanceConfig } from "../platform/config.js";
import { startRuntime } from "../../local/runtime.js";
import { runningInstance, RUNTIME_ENV } from "../../local/instance-lock.js";
import { reportFatal } from "../../local/operator-errors.js";
import { checkNodeVersion } from "../../local/node-version.js";
import { BackupError } from "./errors.js";

export interface Instance {
  how: "aws" | "joined" | "stand-ins";
  describe: string;
  close(): Promise<void>;
}


/**
 * `mustExist`: refuse a data folder that holds no instance (backup/inventory would create one).
 * `forRestore`: no administrator is created on a new folder (the archive brings its own, and a
 * restore that fails leaves the folder to bootstrap as before), and a folder an interrupted restore
 * left is opened, so that the restore can finish it.
 */
export async function openInstance(opts: { mustExist: boolean; forRestore?: boolean }): Promise<Instance> {
  if (process.env.SST_RESOURCE_Main) {
    return { how: "aws", describe: `table ${JSON.parse(process.env.SST_RESOURCE_Main).name ?? "?"} (from the environment)`, close: async () => {} };
  }
  const dir = dataDir();
  const running = runningInstance(dir);
  if (running) {
    for (const [k, v] of Object.entries(running.env)) if (RUNTIME_ENV.test(k)) process.env[k] = v;
    resetInstanceConfig();
    return { how: "joined", describe: `the instance running at ${running.baseUrl} (pid ${running.pid}, data ${dir})`, close: async () => {} };
  }
  if (opts.mustExist && !existsSync(join(dir, "dynamodb"))) {
    throw new BackupError(`${dir} holds no Forgeline instance (no dynamodb folder); set FORGELINE_DATA_DIR to the instance's data folder`);
  }
  const restoring = opts.forRestore === true;
  const runtime = await startRuntime({ dataDir: dir, persistent: true, workers: false, bootstrapAtStart: !restoring, allowInterruptedRestore: restoring });
  return { how: "stand-ins", describe: `the data folder ${dir} (stand-ins started by this command)`, close: () => runtime.stop() };
}

export interface ParsedArgs {
  positional: string[];
  flags: Set<string>;
}

export function parseArgs(argv: string[], known: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Set<string>();
  for (const arg of argv) {
    if (arg === "--") continue;
    if (arg.startsWith("--")) {
      if (!known.includes(arg)) throw new BackupError(`unknown option ${arg} (known: ${known.join(", ")})`);
      flags.add(arg);
    } else positional.push(arg);
  }
  return { positional, flags };
}

/** Runs a CLI: `--help` (or `-h`), quiet logs, clear one-line errors for expected failures, exit codes 0/1/2. */
export async function runCli(usage: string, main: () => Promise<void>): Promise<never> {
  if (process.argv.slice(2).some((arg) => arg === "--help" || arg === "-h")) {
    console.log(`Usage: ${usage}`);
    process.exit(0);
  }
  process.env.LOG_LEVEL ??= "warn";
  checkNodeVersion((line) => console.error(line));
  try {
    await main();
    process.exit(0);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\nUsage: ${usage}`);
      process.exit(2);
    }
    process.exit(reportFatal(err));
  }
}

export class UsageError extends Error {}
