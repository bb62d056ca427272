/**
 * The "isolated" project's runtime (vitest.config.ts): `npm start -- --isolated` itself
 * (scripts/start.ts), in a process of its own on a temporary data folder and a random port, so every
 * function runs from its Lambda bundle in a process of its own with only its links. The bundles are
 * built once here; test files that start a runtime of their own reuse them (`isolatedBuildDir`).
 * Its own process, too, because a runtime sets the environment of the process it runs in, and the
 * default project's runtime may be running in this one.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { buildFunctions } from "../../local/isolated/bundle.js";
import { runningInstance, RUNTIME_ENV } from "../../local/instance-lock.js";
import { stopChild } from "../../local/child.js";
import { alive, until } from "./processes.js";

const ROOT = resolve(import.meta.dirname, "../..");

export default async function setup(project: TestProject) {
  const buildDir = mkdtempSync(join(tmpdir(), "forgeline-bundles-"));
  const dataDir = mkdtempSync(join(tmpdir(), "forgeline-isolated-"));
  await buildFunctions({ outDir: buildDir });
  const token = `glpat-${randomBytes(15).toString("hex")}`;
  // A clean environment: none of this process's runtime settings leak into the other runtime.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !RUNTIME_ENV.test(k)));
  const child = spawn(process.execPath, [join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/start.ts", "--isolated"], {
    cwd: ROOT,
    env: {
      ...inherited,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      FORGELINE_DATA_DIR: dataDir,
      FORGELINE_PORT: "0",
      FORGELINE_BOOTSTRAP_ADMIN_TOKEN: token,
      FORGELINE_ISOLATED_BUILD_DIR: buildDir,
      FORGELINE_LOCAL_WAIT_OVERRIDES: JSON.stringify({ WaitForWritesToDrain: 50 }),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  // The data folder's lock names the runtime's address once it serves.
  await until(() => runningInstance(dataDir) !== undefined || child.exitCode !== null, 600_000);
  const info = runningInstance(dataDir);
  if (!info) {
    await stopChild(child, () => child.kill("SIGTERM"));
    throw new Error(`npm start -- --isolated did not start (exit ${child.exitCode})`);
  }
  project.provide("baseUrl", info.baseUrl);
  project.provide("adminToken", token);
  project.provide("env", { ...info.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
  project.provide("isolatedBuildDir", buildDir);
  return async () => {
    await stopChild(child, () => child.kill("SIGTERM"));
    await until(() => !alive(info.pid), 30_000);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(buildDir, { recursive: true, force: true });
  };
}
