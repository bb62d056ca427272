/**
 * SQS stand-in: fauxqs 1.9.2 (the 2.x line needs Node 22), started from its Fastify app so it binds to
 * loopback (its own CLI always binds 0.0.0.0). It keeps messages in memory, so on a clean stop the
 * runtime first lets the consumers drain the queues and then saves whatever is left to the data
 * folder; the next start sends those messages again. Consumers are idempotent by event id, so a
 * message that was both processed and saved counts once.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { buildApp } from "fauxqs";
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";

export interface SqsStandIn {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startSqs(opts: { port: number }): Promise<SqsStandIn> {
  const app = buildApp({ logger: false, host: "127.0.0.1" });
  await app.listen({ port: opts.port, host: "127.0.0.1" });
  return { endpoint: `http://127.0.0.1:${opts.port}`, stop: async () => void (await app.close()) };
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

/** Receives every visible message of a queue (leaving them invisible) and writes them to `file`. */
export async function saveQueue(sqs: SQSClient, url: string, file: string): Promise<number> {
  const saved: SavedMessage[] = [];
  for (;;) {
    const out = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 300, MessageAttributeNames: ["All"] }),
    );
    const batch = out.Messages ?? [];
    if (batch.length === 0) break;
    for (const m of batch) saved.push({ body: m.Body ?? "", attributes: m.MessageAttributes as SavedMessage["attributes"] });
    await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: batch.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
  }
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as SavedMessage[]) : [];
  const all = [...previous, ...saved];
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file + ".tmp", JSON.stringify(all));
  renameSync(file + ".tmp", file);
  return saved.length;
}

/** Sends back the messages a previous run saved, then removes the file. */
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
