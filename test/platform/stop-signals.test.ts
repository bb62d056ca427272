/**
 * `npm start` stopped from outside. A terminal's Ctrl-C sends SIGINT to the whole foreground process
 * group, and a service manager's stop (systemd's default) sends SIGTERM to every process of the
 * service: the stand-ins get it too. They must outlive the runtime's drain, or the consumers would
 * spend it polling a queue that is gone. And a runtime that dies without stopping them must not
 * leave them running.
 */
import { describe, it, expect } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../../local/ports.js";
import { groupMembers, until } from "../support/processes.js";

const root = resolve(import.meta.dirname, "../..");

/** `scripts/start.ts` in its own process group, as a terminal gives a foreground job; resolves once it serves. */
async function npmStart(dataDir: string): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "scripts", "start.ts")], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, FORGELINE_DATA_DIR: dataDir, FORGELINE_PORT: String(await freePort()), FORGELINE_BOOTSTRAP_ADMIN_TOKEN: "glpat-stop-signal-test-token-01" },
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((ok) => child.once("exit", (code) => ok(code)));
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start did not come up:\n${output}`)), 90_000);
    child.stdout!.on("data", () => output.includes("Press Ctrl-C") && (clearTimeout(timer), ok()));
    child.once("exit", () => (clearTimeout(timer), fail(new Error(`npm start exited:\n${output}`))));
  });
  // The runtime, DynamoDB Local and the SQS stand-in.
  expect(groupMembers(child.pid!).length).toBeGreaterThanOrEqual(3);
  return { child, output: () => output, exited };
}

describe("npm start stopped from outside", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`drains the queue before the stand-ins stop on ${signal} to the whole group, and leaves nothing running`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "forgeline-stop-"));
      let pgid: number | undefined;
      try {
        const { child, output, exited } = await npmStart(dataDir);
        pgid = child.pid!;
        process.kill(-pgid, signal);
        expect(await exited).toBe(0);
        expect(output()).toContain("Stopped.");
        expect(output()).not.toContain("queue poll failed");
        expect(output()).not.toContain("runtime stop step failed");
        // Nothing was left queued: the SQS stand-in's journal holds no message.
        const journal = join(dataDir, "sqs", "journal.ndjson");
        expect(existsSync(journal)).toBe(true);
        expect(readFileSync(journal, "utf8")).toBe("");
        expect(groupMembers(pgid)).toEqual([]);
      } finally {
        if (pgid && groupMembers(pgid).length) process.kill(-pgid, "SIGKILL");
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 150_000);
  }

  it("takes the stand-ins down with it when the runtime itself is killed", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-stop-"));
    let pgid: number | undefined;
    try {
      const { child, exited } = await npmStart(dataDir);
      pgid = child.pid!;
      process.kill(pgid, "SIGKILL"); // the runtime only, not its group
      await exited;
      // DynamoDB Local gets its parent-death signal; the SQS stand-in sees its stdin close.
      expect(await until(() => groupMembers(pgid!).length === 0)).toBe(true);
    } finally {
      if (pgid && groupMembers(pgid).length) process.kill(-pgid, "SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
