/**
 * The SQS stand-in's journal: messages SQS acknowledged survive a SIGKILL of the stand-in (and of
 * the whole runtime), deleted ones do not come back, and the file stays small.
 */
import { describe, it, expect, vi } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
  type Message,
} from "@aws-sdk/client-sqs";
import { startSqs, type SqsStandIn } from "../../local/sqs.js";
import { QueueJournal, type WriteFn } from "../../local/sqs-journal.js";
import { freePort } from "../../local/ports.js";
import { killed } from "../support/processes.js";
import { startRuntime, defaultLocalConfig, INGEST_QUEUE } from "../../local/runtime.js";

const credentials = { accessKeyId: "local", secretAccessKey: "local" };

async function queues(standIn: SqsStandIn) {
  const client = new SQSClient({ endpoint: standIn.endpoint, region: "us-east-1", credentials });
  const dlq = await client.send(new CreateQueueCommand({ QueueName: "journal-dlq" }));
  const arn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ["QueueArn"] }))).Attributes!.QueueArn;
  const main = await client.send(
    new CreateQueueCommand({ QueueName: "journal-main", Attributes: { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: arn, maxReceiveCount: 5 }) } }),
  );
  return { client, url: main.QueueUrl! };
}

/** A fresh folder for a journal file, removed afterwards. */
async function withJournal(fn: (journal: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "forgeline-sqs-journal-"));
  try {
    await fn(join(dir, "journal.ndjson"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A stand-in started on `journal` (as the next start of the runtime would), its queues created, stopped after `fn`. */
async function restarted(journal: string, fn: (q: Awaited<ReturnType<typeof queues>>) => Promise<void>): Promise<void> {
  const standIn = await startSqs({ port: await freePort(), journal });
  try {
    await fn(await queues(standIn));
  } finally {
    await standIn.stop();
  }
}

/** What is written to standard error (the log's warnings) until `stop`, one entry per line. */
function captureStderr(): { stop: () => string[] } {
  const spy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  return {
    stop: () => {
      const lines = spy.mock.calls.map(([chunk]) => String(chunk)).join("").split("\n").filter(Boolean);
      spy.mockRestore();
      return lines;
    },
  };
}

async function receiveAll(client: SQSClient, url: string): Promise<Message[]> {
  const all: Message[] = [];
  for (;;) {
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, MessageAttributeNames: ["All"], VisibilityTimeout: 60 }));
    if (!out.Messages?.length) return all;
    all.push(...out.Messages);
  }
}

describe("the SQS stand-in's journal", () => {
  it("brings back every acknowledged, undeleted message after a SIGKILL, and none that was deleted", () =>
    withJournal(async (journal) => {
      const first = await startSqs({ port: await freePort(), journal });
      const { client, url } = await queues(first);
      const tagged = { eventId: { DataType: "String", StringValue: "evt-c" } };
      await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "a" }));
      await client.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: [
            { Id: "1", MessageBody: "b" },
            { Id: "2", MessageBody: "c", MessageAttributes: tagged },
            { Id: "3", MessageBody: "d" },
          ],
        }),
      );
      const received = await receiveAll(client, url);
      expect(received.map((m) => m.Body).sort()).toEqual(["a", "b", "c", "d"]);
      const handle = (body: string) => received.find((m) => m.Body === body)!.ReceiptHandle!;
      await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: handle("a") }));
      await client.send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: "x", ReceiptHandle: handle("b") }] }));
      await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "e" })); // still visible at the kill
      await killed(first.pid); // c and d in flight, e queued

      await restarted(journal, async (again) => {
        const back = await receiveAll(again.client, again.url);
        expect(back.map((m) => m.Body).sort()).toEqual(["c", "d", "e"]);
        expect(back.find((m) => m.Body === "c")!.MessageAttributes).toEqual(tagged);
        await again.client.send(new DeleteMessageBatchCommand({ QueueUrl: again.url, Entries: back.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
      });
      await restarted(journal, async (last) => expect(await receiveAll(last.client, last.url)).toEqual([]));
    }));

  it("keeps a message deleted with a stale receipt handle, which SQS leaves queued", () =>
    withJournal(async (journal) => {
      const first = await startSqs({ port: await freePort(), journal });
      const { client, url } = await queues(first);
      await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "slow consumer" }));
      const receive = () => client.send(new ReceiveMessageCommand({ QueueUrl: url, VisibilityTimeout: 1, WaitTimeSeconds: 3 }));
      const stale = (await receive()).Messages![0]!.ReceiptHandle!;
      const again = (await receive()).Messages![0]!; // visible again after 1 s, with a new handle
      expect(again.ReceiptHandle).not.toBe(stale);
      await client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: stale })); // succeeds, deletes nothing
      await killed(first.pid);

      await restarted(journal, async (back) => expect((await receiveAll(back.client, back.url)).map((m) => m.Body)).toEqual(["slow consumer"]));
    }));

  it("rewrites itself to the live messages instead of growing with every send and delete", () =>
    withJournal(async (journal) => {
      await restarted(journal, async ({ client, url }) => {
        await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "kept", DelaySeconds: 900 }));
        for (let round = 0; round < 150; round++) {
          await client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: Array.from({ length: 10 }, (_, i) => ({ Id: String(i), MessageBody: `m${round}-${i}` })) }));
          const got = await receiveAll(client, url);
          await client.send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: got.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
        }
        // 3,001 entries were written; compaction keeps the file near the live set (one message).
        const lines = readFileSync(journal, "utf8").split("\n").filter(Boolean).length;
        expect(lines).toBeLessThan(1100);
      });
      expect(readFileSync(journal, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { body: string }).body)).toEqual(["kept"]);
    }));

  it("drops a torn last record (a crash in the middle of an append) with a log line, and the next record starts a line of its own", () =>
    withJournal(async (file) => {
      writeFileSync(file, `${JSON.stringify({ put: "q", id: "1", body: "whole" })}\n{"put":"q","id":"2","bo`);
      const logged = captureStderr();
      const journal = new QueueJournal(file);
      const lines = logged.stop();
      expect(lines.filter((l) => l.includes("dropped a torn last record"))).toHaveLength(1);
      expect(journal.takeRecovered("q").map((m) => m.body)).toEqual(["whole"]);
      expect(journal.takeRecovered("q")).toEqual([]);
      journal.sent("q", "3", "after the restart");
      await journal.flush();
      journal.close();
      const again = new QueueJournal(file);
      expect(again.takeRecovered("q").map((m) => m.body)).toEqual(["whole", "after the restart"]);
      again.close();
    }));

  it("refuses a record a full disk cut short, and leaves no half line for the next record to join", () =>
    withJournal(async (file) => {
      // As Linux answers on a full disk: the first write takes what fits, the next one fails.
      let full = false;
      let writes = 0;
      const write: WriteFn = (fd, data, offset, length) => {
        if (!full) return writeSync(fd, data, offset, length);
        if (writes++ === 0) return writeSync(fd, data, offset, Math.floor(length / 2));
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      };
      const journal = new QueueJournal(file, write);
      journal.sent("q", "1", "before the disk filled");
      await journal.flush();
      full = true;
      expect(() => journal.sent("q", "2", "never acknowledged")).toThrow(expect.objectContaining({ code: "ENOSPC" }));
      expect(readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { body: string }).body)).toEqual(["before the disk filled"]);
      full = false;
      journal.sent("q", "3", "once space returned");
      await journal.flush();
      // Killed rather than closed: what a restart finds is the file as appended.
      const logged = captureStderr();
      const restarted = new QueueJournal(file);
      expect(logged.stop()).toEqual([]);
      expect(restarted.takeRecovered("q").map((m) => m.body)).toEqual(["before the disk filled", "once space returned"]);
      restarted.close();
      journal.close();
    }));

  it("keeps a message the runtime's queue acknowledged when the whole runtime is killed", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-sqs-crash-"));
    const root = resolve(import.meta.dirname, "../..");
    // A runtime without consumers, so the message stays queued; it is SIGKILLed with its stand-ins.
    const script = `
      const { startRuntime, defaultLocalConfig, INGEST_QUEUE } = await import(${JSON.stringify(join(root, "local", "runtime.ts"))});
      const { SQSClient, SendMessageCommand, GetQueueUrlCommand } = await import("@aws-sdk/client-sqs");
      const dataDir = ${JSON.stringify(dataDir)};
      await startRuntime({ dataDir, persistent: true, workers: false, config: defaultLocalConfig(dataDir), bootstrapToken: "glpat-sqs-crash-test-token-01" });
      const sqs = new SQSClient({ endpoint: process.env.AWS_ENDPOINT_URL_SQS });
      const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: INGEST_QUEUE }));
      await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "acknowledged before the crash" }));
      console.log("sent");
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stderr!.on("data", (d) => (output += d));
    try {
      await new Promise<void>((ok, fail) => {
        child.stdout!.on("data", (d) => String(d).includes("sent") && ok());
        child.once("exit", () => fail(new Error(`runtime exited:\n${output}`)));
      });
      process.kill(-child.pid!, "SIGKILL"); // the runtime and both stand-ins at once
      await new Promise((r) => child.once("exit", r));
      // What an earlier version, without the journal, saved at its last stop is sent again too.
      writeFileSync(join(dataDir, "sqs", `${INGEST_QUEUE}.json`), JSON.stringify([{ body: "saved by an earlier version" }]));

      const runtime = await startRuntime({ dataDir, persistent: true, workers: false, config: defaultLocalConfig(dataDir), bootstrapToken: "glpat-sqs-crash-test-token-01" });
      try {
        const sqs = new SQSClient({ endpoint: process.env.AWS_ENDPOINT_URL_SQS });
        const url = JSON.parse(process.env.SST_RESOURCE_IngestQueue!).url as string;
        expect(url).toContain(INGEST_QUEUE);
        expect((await receiveAll(sqs, url)).map((m) => m.Body).sort()).toEqual(["acknowledged before the crash", "saved by an earlier version"]);
        expect(existsSync(join(dataDir, "sqs", `${INGEST_QUEUE}.json`))).toBe(false);
      } finally {
        await runtime.stop();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
