/**
 * The SST app (sst.config.ts + stacks/) type-checks offline. The first run from a clean clone installs
 * bun and SST's platform (a few hundred MB from npm), hence the long timeout; later runs reuse them.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../scripts/infra-typecheck.sh", import.meta.url));

function run(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile("bash", [script], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

describe("infra type-check", () => {
  it("sst.config.ts and stacks/ type-check against SST's generated platform types", async () => {
    const { code, output } = await run();
    expect(output).not.toMatch(/error TS\d+/);
    expect(code, output).toBe(0);
  }, 600_000);
});
