import { describe, it, expect } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRuntime, defaultLocalConfig } from "../../local/runtime.js";
import { javaCommand, PrerequisiteError } from "../../local/prerequisites.js";
import { commitSubjects, repoPaths } from "../support/git.js";

describe("the embedded runtime", () => {
  it("keeps tables and repositories across a restart of a persistent data folder", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-restart-"));
    const config = defaultLocalConfig(dataDir);
    const token = "glpat-restart-test-token-0001";
    try {
      const first = await startRuntime({ dataDir, persistent: true, config, bootstrapToken: token });
      expect(first.bootstrap.created).toBe(true);
      const created = await fetch(`${first.baseUrl}/api/v4/projects`, {
        method: "POST",
        headers: { "Private-Token": token, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "survivor", initialize_with_readme: true }),
      }).then((r) => r.json() as Promise<{ id: number }>);
      await first.stop();

      const second = await startRuntime({ dataDir, persistent: true, config, bootstrapToken: token });
      expect(second.bootstrap.created).toBe(false);
      const again = await fetch(`${second.baseUrl}/api/v4/projects/${created.id}`, { headers: { "Private-Token": token } });
      expect(again.status).toBe(200);
      expect(((await again.json()) as { name: string }).name).toBe("survivor");
      expect(commitSubjects(repoPaths("default", "project", created.id)[0]!)).toEqual(["Initial commit"]);
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("explains a missing Java runtime instead of failing obscurely", () => {
    const saved = { PATH: process.env.PATH, JAVA_HOME: process.env.JAVA_HOME };
    process.env.PATH = "/nonexistent";
    delete process.env.JAVA_HOME;
    try {
      expect(() => javaCommand()).toThrow(PrerequisiteError);
      expect(() => javaCommand()).toThrow(/Java 17\+ runtime/);
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.JAVA_HOME) process.env.JAVA_HOME = saved.JAVA_HOME;
    }
  });

  it("starts DynamoDB Local with its telemetry to AWS switched off", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-telemetry-"));
    try {
      const rt = await startRuntime({ dataDir, persistent: false, config: defaultLocalConfig(dataDir) });
      try {
        const port = new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB!).port;
        const commandLines = execFileSync("ps", ["-ww", "-eo", "args="], { encoding: "utf8" })
          .split("\n")
          .map((line) => line.trim().split(/\s+/))
          .filter((args) => args.some((a) => a.includes("DynamoDBLocal.jar")) && args[args.indexOf("-port") + 1] === port);
        expect(commandLines).toHaveLength(1);
        expect(commandLines[0]).toContain("-disableTelemetry");
      } finally {
        await rt.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("serves on loopback by default", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-loopback-"));
    try {
      const rt = await startRuntime({ dataDir, persistent: false, config: defaultLocalConfig(dataDir) });
      expect(new URL(rt.baseUrl).hostname).toBe("127.0.0.1");
      expect(process.env.AWS_ENDPOINT_URL_SQS).toMatch(/^http:\/\/127\.0\.0\.1:/);
      expect(process.env.AWS_ENDPOINT_URL_SFN).toMatch(/^http:\/\/127\.0\.0\.1:/);
      await rt.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
