/**
 * SQS stand-in: fauxqs 1.9.2 (the 2.x line needs Node 22), started from its Fastify app in a child
 * process so it binds to loopback (its own CLI always binds 0.0.0.0). fauxqs keeps messages in
 * memory; with a persistent data folder the process journals them (`sqs-journal.ts`), so messages
 * it acknowledged survive a stop, a crash or a kill, and come back when the queues are created on
 * the next start. Consumers are idempotent by event id, so a message delivered twice counts once.
 */
import { existsSync, readFileSync, renameSync } from "node:fs";
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { stopChild } from "./child.js";
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";

export interface SqsStandIn {
  endpoint: string;
  /** The stand-in's own process. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts fauxqs in a child process (`sqs-process.ts`). In-process it would share one event loop with
 * the handlers, so every SQS call a handler made would also cost that handler's CPU for the server
 * side; on AWS that work happens elsewhere, as it does for DynamoDB Local here.
 */
export async function startSqs(opts: { port: number; journal?: string }): Promise<SqsStandIn> {
  const root = resolve(import.meta.dirname, "..");
  const args = [join(root, "local", "sqs-process.ts"), String(opts.port), ...(opts.journal ? [opts.journal] : [])];
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: root,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  let started = false;
  let partial = "";
  // What the stand-in logs (its journal's warnings, JSON lines of the platform log) joins the
  // runtime's own log. Until it is ready all it writes is also kept, to explain a start that fails.
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    if (!started) output += text;
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith('{"level":')) process.stderr.write(`${line}\n`);
  });
  await new Promise<void>((ready, failed) => {
    const timer = setTimeout(() => failed(new Error(`the SQS stand-in did not start within 30 s:\n${output}`)), 30_000);
    child.stdout?.on("data", (d) => {
      output += d;
      if (output.includes("ready")) {
        clearTimeout(timer);
        ready();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      failed(new Error(`the SQS stand-in exited (${code}):\n${output}`));
    });
  });
  started = true;
  child.removeAllListeners("exit");
  return {
    endpoint: `http://127.0.0.1:${opts.port}`,
    pid: child.pid!,
    stop: () => stopChild(child, () => child.stdin?.end()), // the child closes its server and exits
  };
}

export interface QueueNames {
  queue: string;
  deadLetter: string;
  /** Receives before a message moves to the dead-letter queue (SST `dlq.retry`). */
  maxReceiveCount: number;
  visibilityTimeoutSeconds: number;
}

export async function ensureQueues(sqs: SQSClient, q: QueueNames): Promise<{ url: string; dlqUrl: string }> {
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: q.deadLetter }));
  const dlqAttrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ["QueueArn"] }));
  const main = await sqs.send(
    new CreateQueueCommand({
      QueueName: q.queue,
      Attributes: {
        VisibilityTimeout: String(q.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqAttrs.Attributes?.QueueArn, maxReceiveCount: q.maxReceiveCount }),
      },
    }),
  );
  return { url: main.QueueUrl!, dlqUrl: dlq.QueueUrl! };
}

interface SavedMessage {
  body: string;
  attributes?: Record<string, { DataType: string; StringValue?: string }>;
}

/**
 * Sends back the messages an earlier version saved to `file` at its last stop (before the journal
 * existed), then renames the file aside.
 */
export async function restoreQueue(sqs: SQSClient, url: string, file: string): Promise<number> {
  if (!existsSync(file)) return 0;
  const saved = JSON.parse(readFileSync(file, "utf8")) as SavedMessage[];
  for (let i = 0; i < saved.length; i += 10) {
    const chunk = saved.slice(i, i + 10);
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: m.body, MessageAttributes: m.attributes })),
      }),
    );
  }
  renameSync(file, `${file}.restored-${Date.now()}`);
  return saved.length;
}
