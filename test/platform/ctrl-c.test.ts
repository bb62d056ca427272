/**
 * `npm start` stopped the way a terminal stops it: Ctrl-C sends SIGINT to the whole foreground
 * process group, the stand-ins included. They must outlive the runtime's drain, or the consumers
 * would spend it polling a queue that is gone.
 */
import { describe, it, expect } from "vitest";
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../../local/ports.js";

const root = resolve(import.meta.dirname, "../..");

/** Pids of every process in a process group. */
function groupMembers(pgid: number): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,pgid="], { encoding: "utf8" });
  return out
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, group]) => group === pgid)
    .map(([pid]) => pid!);
}

describe("npm start and a terminal's Ctrl-C", () => {
  it("drains the queue before the stand-ins stop, and leaves nothing running", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-ctrl-c-"));
    // Its own process group, as a terminal gives a foreground job.
    const child = spawn(process.execPath, ["--import", "tsx", join(root, "scripts", "start.ts")], {
      cwd: root,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORGELINE_DATA_DIR: dataDir, FORGELINE_PORT: String(await freePort()), FORGELINE_BOOTSTRAP_ADMIN_TOKEN: "glpat-ctrl-c-test-token-0001" },
    });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((ok) => child.once("exit", (code) => ok(code)));
    try {
      await new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`npm start did not come up:\n${output}`)), 90_000);
        child.stdout!.on("data", () => output.includes("Press Ctrl-C") && (clearTimeout(timer), ok()));
        child.once("exit", () => (clearTimeout(timer), fail(new Error(`npm start exited:\n${output}`))));
      });
      // The runtime, DynamoDB Local and the SQS stand-in.
      expect(groupMembers(child.pid!).length).toBeGreaterThanOrEqual(3);

      process.kill(-child.pid!, "SIGINT");
      expect(await exited).toBe(0);
      expect(output).toContain("Stopped.");
      expect(output).not.toContain("queue poll failed");
      // Nothing was left queued: the SQS stand-in's journal holds no message.
      const journal = join(dataDir, "sqs", "journal.ndjson");
      expect(existsSync(journal)).toBe(true);
      expect(readFileSync(journal, "utf8")).toBe("");
      expect(groupMembers(child.pid!)).toEqual([]);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
