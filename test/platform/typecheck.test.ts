/** The application (functions/, local/, scripts/, test/, bench/, rest/) type-checks under strict settings. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsc = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));

describe("application type-check", () => {
  it("has no TypeScript errors", async () => {
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
        resolve({ code: err ? 1 : 0, output: `${stdout}${stderr}` }),
      );
    });
    expect(output).not.toMatch(/error TS\d+/);
    expect(code, output).toBe(0);
  }, 300_000);
});
