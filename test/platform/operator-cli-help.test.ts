/**
 * Every operator CLI answers `--help` and `-h` with its usage on stdout and exit status 0, before it
 * opens an instance: asking how to run a command never starts stand-ins or touches data.
 */
import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");
/** This environment without a token or an instance to talk to. */
const bareEnv = (dataDir: string) => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("FORGELINE_") && !k.startsWith("SST_RESOURCE_"))),
  FORGELINE_DATA_DIR: dataDir,
  NODE_NO_WARNINGS: "1",
});

const cases: Array<[script: string, usage: string]> = [
  ["scripts/backup.ts", "Usage: npm run backup -- <file> [--progress]"],
  ["scripts/restore.ts", "Usage: npm run restore -- "],
  ["scripts/inventory.ts", "Usage: npm run inventory"],
  ["scripts/retention.ts", "Usage: npm run retention"],
  ["functions/moves/cli/main.ts", "Usage:\n  npm run moves -- schedule "],
];

describe("operator CLIs: --help", () => {
  it.each(cases)("%s prints its usage and exits 0", (script, usage) => {
    // A data folder with no instance: were the CLI to open one, it would fail or create it.
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-help-"));
    for (const flag of ["--help", "-h"]) {
      const run = spawnSync(process.execPath, ["--import", "tsx", script, flag], { cwd: root, encoding: "utf8", env: bareEnv(dataDir) });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.startsWith(usage), run.stdout).toBe(true);
    }
  });

  it("the moves CLI asks for a token only when it has a request to send", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-help-"));
    const run = spawnSync(process.execPath, ["--import", "tsx", "functions/moves/cli/main.ts", "list", "projects"], { cwd: root, encoding: "utf8", env: bareEnv(dataDir) });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("No token: set FORGELINE_TOKEN");
  });
});
