/**
 * The DynamoDB stand-in's launcher is compiled once and reused: each start after the first skips
 * the in-memory compilation a source-file launch does, and the stand-in it starts still answers on
 * loopback (test/platform/loopback-listeners.test.ts checks every address the runtime binds).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ListTablesCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { describe, expect, it } from "vitest";
import { compiledLauncher, startDynamo } from "../../local/dynamodb.js";
import { javaCommand } from "../../local/prerequisites.js";
import { freePort } from "../../local/ports.js";

/** The command line of the process started with `-port <port>` (Linux's /proc). */
function commandLineWithPort(port: number): string[] | undefined {
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    const i = args.indexOf("-port");
    if (i >= 0 && args[i + 1] === String(port) && args.some((a) => a.includes("DynamoDBLocal.jar"))) return args;
  }
  return undefined;
}

describe("DynamoDB stand-in launcher", () => {
  it("is compiled once into the cache and started from there", async () => {
    const first = compiledLauncher(javaCommand());
    expect(first).toBeDefined();
    const classFile = join(first!, "LoopbackDynamoDB.class");
    expect(existsSync(classFile)).toBe(true);
    const compiledAt = statSync(classFile).mtimeMs;
    // A second start finds it: same folder, not compiled again.
    expect(compiledLauncher(javaCommand())).toBe(first);
    expect(statSync(classFile).mtimeMs).toBe(compiledAt);

    const port = await freePort();
    const standIn = await startDynamo({ port });
    try {
      const args = commandLineWithPort(port);
      expect(args?.join(" ")).toContain(first!);
      expect(args).toContain("LoopbackDynamoDB");
      expect(args?.some((a) => a.endsWith(".java"))).toBe(false);
      const client = new DynamoDBClient({ endpoint: standIn.endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
      expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
      client.destroy();
    } finally {
      await standIn.stop();
    }
  });
});
