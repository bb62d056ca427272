/**
 * Everything the local runtime starts listens on loopback only: the API (FORGELINE_HOST, default
 * 127.0.0.1), DynamoDB Local, the SQS stand-in and the Step Functions stand-in. DynamoDB Local
 * accepts any credentials, so a wide listener would hand the whole table to the network.
 */
import { describe, it, expect } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../local/ports.js";
import { startScript } from "../support/scripts.js";
import { groupMembers } from "../support/processes.js";
import { decodeProcAddress, isLoopback, listeners } from "../support/listening-sockets.js";

describe("listening sockets of npm start", () => {
  it("decodes /proc addresses and tells loopback from the rest", () => {
    expect(decodeProcAddress("0100007F")).toBe("127.0.0.1");
    expect(decodeProcAddress("00000000")).toBe("0.0.0.0");
    expect(decodeProcAddress("00000000000000000000000001000000")).toBe("0:0:0:0:0:0:0:1");
    expect(decodeProcAddress("0000000000000000FFFF00000100007F")).toBe("0:0:0:0:0:ffff:7f00:1");
    expect(decodeProcAddress("00000000000000000000000000000000")).toBe("0:0:0:0:0:0:0:0");
    for (const a of ["127.0.0.1", "127.0.0.2", "0:0:0:0:0:0:0:1", "0:0:0:0:0:ffff:7f00:1"]) expect(isLoopback(a), a).toBe(true);
    for (const a of ["0.0.0.0", "10.0.0.1", "0:0:0:0:0:0:0:0", "0:0:0:0:0:ffff:a00:1", "fe80:0:0:0:0:0:0:1"]) expect(isLoopback(a), a).toBe(false);
  });

  it("the whole process tree listens on loopback only", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-sockets-"));
    let pgid: number | undefined;
    try {
      const { child, output } = await startScript({ FORGELINE_DATA_DIR: dataDir, FORGELINE_PORT: String(await freePort()), FORGELINE_BOOTSTRAP_ADMIN_TOKEN: "glpat-loopback-test-token-0001" });
      pgid = child.pid!;
      const found = listeners(pgid);
      const port = Number(/running at http:\/\/127\.0\.0\.1:(\d+)/.exec(output())?.[1]);
      // The API, DynamoDB Local (a JVM), the SQS stand-in (its own Node process) and Step Functions.
      expect(found.some((l) => l.port === port)).toBe(true);
      expect(found.some((l) => l.command === "java")).toBe(true);
      expect(new Set(found.map((l) => l.pid)).size).toBeGreaterThanOrEqual(3);
      expect(found.length).toBeGreaterThanOrEqual(4);
      expect(found.filter((l) => !isLoopback(l.address))).toEqual([]);
    } finally {
      if (pgid && groupMembers(pgid).length) process.kill(-pgid, "SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
