/**
 * Starts one embedded runtime for the whole test run: DynamoDB Local in memory, SQS and Step
 * Functions stand-ins and the HTTP server on random loopback ports, data in a temporary folder that
 * is removed afterwards. Test files reach it over HTTP and, for domain-level tests, through the same
 * environment the handlers use (see worker-env.ts). The "isolated" project runs `npm start --
 * --isolated` instead (global-setup-isolated.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { chromiumExecutable } from "./chromium.js";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    env: Record<string, string>;
    /** Set in the "isolated" project (global-setup-isolated.ts): where its Lambda bundles are. */
    isolatedBuildDir?: string;
  }
}

export default async function setup(project: TestProject) {
  // The academic routes are generated from rest/ (ignored by git); the route table imports them, so
  // they are regenerated before the runtime is loaded (`npx vitest run <file>` works on a clean clone).
  execFileSync(process.execPath, ["--import", "tsx", "scripts/pers_autoload.ts"], { cwd: join(import.meta.dirname, "../.."), stdio: ["ignore", "ignore", "inherit"] });
  const { startRuntime, defaultLocalConfig } = await import("../../local/runtime.js");
  const dataDir = mkdtempSync(join(tmpdir(), "forgeline-test-"));
  process.env.LOG_LEVEL ??= "warn";
  process.env.FORGELINE_LOCAL_WAIT_OVERRIDES ??= JSON.stringify({ WaitForWritesToDrain: 50 });
  // Unpacked here, once, so browser tests in parallel workers never race on it.
  process.env.CHROMIUM_PATH = await chromiumExecutable();
  // Tests run scheduled handlers themselves: a timer firing in the middle of a test would race it.
  const runtime = await startRuntime({ dataDir, persistent: false, config: defaultLocalConfig(dataDir), crons: false });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && (k.startsWith("AWS_") || k.startsWith("SST_RESOURCE_") || k.startsWith("FORGELINE_") || k === "LOG_LEVEL" || k === "CHROMIUM_PATH")) env[k] = v;
  }
  project.provide("baseUrl", runtime.baseUrl);
  project.provide("adminToken", runtime.bootstrap.token!);
  project.provide("env", env);
  return async () => {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
