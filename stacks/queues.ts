/**
 * The two queues, each with a dead-letter queue and one consumer (the `workers` entry of kind
 * `queue` that names it, see `singleWorker`):
 * - `IngestQueue`: error-tracking ingestion buffer, consumed by the ingest consumer;
 * - `HookQueue`: error tracking hook deliveries the ingest consumer enqueues, consumed by the hook
 *   worker, which retries a failed delivery with backoff by pushing its message's visibility out.
 */
import { workers } from "../functions/routes";
import { environmentOf, handlerOf, HOOK_DELIVERY_ATTEMPTS, QUEUE_BATCHING, QUEUE_CONSUMER_TIMEOUT_SECONDS, queueVisibilitySeconds, singleWorker, type QueueBatching } from "./plan";
import { lambdaArgs, linksFor } from "./functions";
import { secretKey } from "./secrets";

// Messages that failed 5 receives wait here (14 days, the SQS maximum) for inspection or redrive.
export const ingestDlq = new sst.aws.Queue("IngestDlq", {
  transform: { queue: { messageRetentionSeconds: 14 * 24 * 3600 } },
});

export const ingestQueue = new sst.aws.Queue("IngestQueue", {
  dlq: { queue: ingestDlq.arn, retry: 5 },
  // AWS rejects a visibility timeout below the consumer's timeout; 6× leaves room for retries.
  visibilityTimeout: `${queueVisibilitySeconds(QUEUE_CONSUMER_TIMEOUT_SECONDS)} seconds`,
});

// Deliveries that failed every attempt (8 receives, backoff up to 15 minutes between them).
export const hookDlq = new sst.aws.Queue("HookDlq", {
  transform: { queue: { messageRetentionSeconds: 14 * 24 * 3600 } },
});

export const hookQueue = new sst.aws.Queue("HookQueue", {
  dlq: { queue: hookDlq.arn, retry: HOOK_DELIVERY_ATTEMPTS },
  // Also past the worker's timeout plus a delivery lock's 45 s: the lock of an invocation that timed
  // out has expired when its message is received again (test/infra/wiring.test.ts checks it).
  visibilityTimeout: `${queueVisibilitySeconds(QUEUE_CONSUMER_TIMEOUT_SECONDS)} seconds`,
});

/**
 * The event source's batching (`QUEUE_BATCHING`): size and window, partial batch responses so one
 * poison message does not re-drive its whole batch, and the concurrency cap where one is set.
 */
function subscription({ size, windowSeconds, maximumConcurrency }: QueueBatching) {
  return {
    batch: { size, ...(windowSeconds ? { window: `${windowSeconds} seconds` as const } : {}), partialResponses: true },
    ...(maximumConcurrency ? { transform: { eventSourceMapping: { scalingConfig: { maximumConcurrency } } } } : {}),
  };
}

const consumer = singleWorker(workers, "queue", "IngestQueue");
if (consumer) {
  ingestQueue.subscribe(
    lambdaArgs({
      handler: handlerOf(consumer.module),
      link: linksFor(consumer.module, "queue", { queue: ingestQueue, hookQueue }),
      timeout: `${QUEUE_CONSUMER_TIMEOUT_SECONDS} seconds`,
    }),
    subscription(QUEUE_BATCHING.IngestQueue),
  );
}

const hookWorker = singleWorker(workers, "queue", "HookQueue");
if (hookWorker) {
  const values = { FORGELINE_SECRET_KEY: secretKey.value };
  hookQueue.subscribe(
    lambdaArgs({
      handler: handlerOf(hookWorker.module),
      link: linksFor(hookWorker.module, "queue", { hookQueue }),
      timeout: `${QUEUE_CONSUMER_TIMEOUT_SECONDS} seconds`,
      environment: Object.fromEntries(environmentOf(hookWorker.module, "queue").map((name) => [name, values[name as keyof typeof values]])),
    }),
    subscription(QUEUE_BATCHING.HookQueue),
  );
}
