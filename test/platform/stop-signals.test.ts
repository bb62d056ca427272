/**
 * `npm start` stopped from outside. A terminal's Ctrl-C sends SIGINT to the whole foreground process
 * group, and a service manager's stop (systemd's default) sends SIGTERM to every process of the
 * service: the stand-ins get it too. They must outlive the runtime's drain, or the consumers would
 * spend it polling a queue that is gone. And a runtime that dies without stopping them must not
 * leave them running.
 */
import { describe, it, expect } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../local/ports.js";
import { groupMembers, until } from "../support/processes.js";
import { startScript } from "../support/scripts.js";

/** `npm start` on `dataDir`, serving: the runtime, DynamoDB Local and the SQS stand-in. */
async function npmStart(dataDir: string) {
  const started = await startScript({ FORGELINE_DATA_DIR: dataDir, FORGELINE_PORT: String(await freePort()), FORGELINE_BOOTSTRAP_ADMIN_TOKEN: "glpat-stop-signal-test-token-01" });
  expect(groupMembers(started.child.pid!).length).toBeGreaterThanOrEqual(3);
  return started;
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
