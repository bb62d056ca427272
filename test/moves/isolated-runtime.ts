/**
 * A runtime of its own for tests that act on whole storages (bulk moves) or inject faults into the
 * state machine's tasks. Bulk-moving `default` on the shared test runtime would move other test
 * files' repositories under them; here every storage holds only this file's data, and the task
 * handlers run in this process, so `injectMoveFaults` reaches them (except in the "isolated" project,
 * where each function runs from its bundle in a process of its own).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { startRuntime, defaultLocalConfig, type Runtime } from "../../local/runtime.js";
import type { Client } from "./support.js";

export interface IsolatedRuntime extends Client {
  runtime: Runtime;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * `config` overrides parts of the local default configuration (the offering, …); a function gets the
 * data folder. `bulkPageSize`: repositories per page of a storage-wide move (`FORGELINE_MOVE_BULK_PAGE_SIZE`),
 * small so that a handful of repositories runs several pages; restored by `stop()`.
 */
export async function startIsolatedRuntime(
  config: Record<string, unknown> | ((dataDir: string) => Record<string, unknown>) = {},
  opts: { bulkPageSize?: number } = {},
): Promise<IsolatedRuntime> {
  const savedEnv = { ...process.env };
  const dataDir = mkdtempSync(join(tmpdir(), "forgeline-moves-"));
  // In the "isolated" project (vitest.config.ts) its functions run from their bundles, too.
  const buildDir = inject("isolatedBuildDir");
  const isolated = buildDir ? { buildDir, prebuilt: true } : undefined;
  const runtime = await startRuntime({ dataDir, persistent: false, config: { ...defaultLocalConfig(dataDir), ...(typeof config === "function" ? config(dataDir) : config) }, isolated });
  if (opts.bulkPageSize !== undefined) process.env.FORGELINE_MOVE_BULK_PAGE_SIZE = String(opts.bulkPageSize);
  return {
    runtime,
    dataDir,
    baseUrl: runtime.baseUrl,
    token: runtime.bootstrap.token!,
    async stop() {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
      for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
      Object.assign(process.env, savedEnv);
    },
  };
}
