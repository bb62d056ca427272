/**
 * Local triggers for the non-HTTP functions: SQS pollers that call a queue worker's Lambda handler
 * with a real-shaped SQS event and delete only the records not listed in `batchItemFailures` (as the
 * Lambda event source mapping does with `ReportBatchItemFailures`), and timers for cron workers.
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { SQSEvent, SQSBatchResponse, Context } from "aws-lambda";
import { log, describeError } from "../functions/platform/log.js";

type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export function lambdaContext(name: string): Context {
  return {
    functionName: name,
    awsRequestId: crypto.randomUUID(),
    getRemainingTimeInMillis: () => 60_000,
  } as unknown as Context;
}

export interface Poller {
  stop(): Promise<void>;
  /** Resolves once a receive came back empty with no batch in flight. */
  drained(): Promise<void>;
}

export function pollQueue(sqs: SQSClient, opts: { name: string; queueUrl: string; queueArn: string; handler: QueueHandler; waitSeconds?: number }): Poller {
  let stopping = false;
  let emptyWaiters: Array<() => void> = [];
  const loop = (async () => {
    while (!stopping) {
      try {
        const out = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: opts.queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: opts.waitSeconds ?? 1,
            MessageAttributeNames: ["All"],
            MessageSystemAttributeNames: ["All"],
          }),
        );
        const messages = out.Messages ?? [];
        if (messages.length === 0) {
          emptyWaiters.forEach((w) => w());
          emptyWaiters = [];
          continue;
        }
        const event: SQSEvent = {
          Records: messages.map((m) => ({
            messageId: m.MessageId!,
            receiptHandle: m.ReceiptHandle!,
            body: m.Body ?? "",
            attributes: (m.Attributes ?? {}) as never,
            messageAttributes: Object.fromEntries(
              Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, { stringValue: v.StringValue, dataType: v.DataType ?? "String", stringListValues: [], binaryListValues: [] }]),
            ),
            md5OfBody: m.MD5OfBody ?? "",
            eventSource: "aws:sqs",
            eventSourceARN: opts.queueArn,
            awsRegion: "us-east-1",
          })),
        };
        let failed = new Set<string>();
        try {
          const result = await opts.handler(event, lambdaContext(opts.name));
          failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (err) {
          // A thrown handler fails the whole batch: every message becomes visible again.
          log.error("queue handler failed", { worker: opts.name, ...describeError(err) });
          failed = new Set(messages.map((m) => m.MessageId!));
        }
        const done = messages.filter((m) => !failed.has(m.MessageId!));
        if (done.length) {
          await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: opts.queueUrl, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
        }
      } catch (err) {
        if (!stopping) {
          log.warn("queue poll failed", { worker: opts.name, ...describeError(err) });
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    }
  })();
  return {
    async stop() {
      stopping = true;
      await loop;
    },
    drained: () => new Promise<void>((resolve) => emptyWaiters.push(resolve)),
  };
}

/** `rate(5 minutes)` → ms. Cron expressions are not needed locally; a rate is required. */
export function rateToMs(schedule: string): number {
  const m = /^rate\((\d+)\s+(minute|minutes|hour|hours|day|days)\)$/.exec(schedule.trim());
  if (!m) throw new Error(`Unsupported schedule for the local runtime: ${schedule}`);
  const unit = m[2]!.startsWith("minute") ? 60_000 : m[2]!.startsWith("hour") ? 3_600_000 : 86_400_000;
  return Number(m[1]) * unit;
}

export function scheduleCron(opts: { name: string; schedule: string; handler: (event: unknown, ctx: Context) => Promise<unknown> }) {
  const run = async () => {
    try {
      await opts.handler({ source: "aws.scheduler", time: new Date().toISOString() }, lambdaContext(opts.name));
    } catch (err) {
      log.error("scheduled function failed", { worker: opts.name, ...describeError(err) });
    }
  };
  const interval = Number(process.env.FORGELINE_CRON_INTERVAL_MS ?? 0) || rateToMs(opts.schedule);
  const first = setTimeout(run, 5_000);
  const timer = setInterval(run, interval);
  first.unref();
  timer.unref();
  return { stop: () => (clearTimeout(first), clearInterval(timer)) };
}
