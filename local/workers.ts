/**
 * Local triggers for the non-HTTP functions: SQS pollers that call a queue worker's Lambda handler
 * with a real-shaped SQS event and delete only the records not listed in `batchItemFailures` (as the
 * Lambda event source mapping does with `ReportBatchItemFailures`), and timers for cron workers.
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from "@aws-sdk/client-sqs";
import type { SQSEvent, SQSBatchResponse, Context } from "aws-lambda";
import { log, describeError } from "../functions/platform/log.js";
import type { QueueBatching } from "../functions/route-spec.js";
import { INVOCATION_PAYLOAD_BYTES } from "../stacks/plan.js";

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

/**
 * A batch is gathered as the Lambda event source gathers one (`QueueBatching`): from the first
 * message, receives of 10 (SQS's maximum) until `size` messages, the invocation payload limit, or the
 * end of the batching window; a window of 0 hands over what one receive brought.
 */
const ONE_AT_A_TIME: QueueBatching = { size: 10, windowSeconds: 0 };

export function pollQueue(
  sqs: SQSClient,
  opts: { name: string; queueUrl: string; queueArn: string; handler: QueueHandler; waitSeconds?: number; batching?: QueueBatching; payloadBytes?: number },
): Poller {
  let stopping = false;
  let emptyWaiters: Array<() => void> = [];
  const batching = opts.batching ?? ONE_AT_A_TIME;
  const payloadBytes = opts.payloadBytes ?? INVOCATION_PAYLOAD_BYTES;
  const receive = (waitSeconds: number) =>
    sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: opts.queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: waitSeconds,
        MessageAttributeNames: ["All"],
        MessageSystemAttributeNames: ["All"],
      }),
    );
  const gather = async (): Promise<Message[]> => {
    const messages = (await receive(opts.waitSeconds ?? 1)).Messages ?? [];
    const until = Date.now() + batching.windowSeconds * 1000;
    let bytes = messages.reduce((n, m) => n + (m.Body?.length ?? 0), 0);
    // Half the payload limit: the event around the bodies (attributes, receipt handles) takes room too.
    while (!stopping && messages.length > 0 && messages.length < batching.size && Date.now() < until && bytes < payloadBytes / 2) {
      const more = (await receive(0)).Messages ?? [];
      if (more.length === 0) await new Promise((r) => setTimeout(r, 20));
      messages.push(...more);
      bytes += more.reduce((n, m) => n + (m.Body?.length ?? 0), 0);
    }
    return messages;
  };
  const loop = (async () => {
    while (!stopping) {
      try {
        const messages = await gather();
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
        for (let i = 0; i < done.length; i += 10) {
          const chunk = done.slice(i, i + 10);
          await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: opts.queueUrl, Entries: chunk.map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle! })) }));
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
