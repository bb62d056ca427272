/**
 * The DynamoDB stand-in's launcher is compiled once and reused: each start after the first skips
 * the in-memory compilation a source-file launch does, and the stand-in it starts still answers on
 * loopback (test/platform/loopback-listeners.test.ts checks every address the runtime binds). With
 * its database on a nearly full disk it refuses writes as the file system would (ENOSPC).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListTablesCommand, DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
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

  it("refuses writes with ENOSPC, not DynamoDB Local's InternalFailure, while its disk is below the mark, and serves reads", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-dynamodb-full-"));
    // A mark above any disk's free space: the disk counts as full.
    const standIn = await startDynamo({ port: await freePort(), dataDir, fullBelowBytes: Number.MAX_SAFE_INTEGER });
    const client = new DynamoDBClient({ endpoint: standIn.endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
    try {
      expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
      const refused = await client.send(new PutItemCommand({ TableName: "no-such-table", Item: { pk: { S: "a" } } })).catch((err: unknown) => err);
      // Refused before DynamoDB Local looked for the table, at once (the SDK retries no 507).
      expect(refused).toMatchObject({ code: "ENOSPC", $metadata: { httpStatusCode: 507, attempts: 1 } });
    } finally {
      client.destroy();
      await standIn.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
