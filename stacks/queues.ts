/**
 * Error-tracking ingestion buffer: `IngestQueue` with a dead-letter queue, consumed by the `workers`
 * entry of kind `queue` (at most one: see `singleWorker`).
 */
import { workers } from "../functions/routes";
import { handlerOf, QUEUE_CONSUMER_TIMEOUT_SECONDS, queueVisibilitySeconds, singleWorker } from "./plan";
import { lambdaArgs, linksFor } from "./functions";

// Messages that failed 5 receives wait here (14 days, the SQS maximum) for inspection or redrive.
export const ingestDlq = new sst.aws.Queue("IngestDlq", {
  transform: { queue: { messageRetentionSeconds: 14 * 24 * 3600 } },
});

export const ingestQueue = new sst.aws.Queue("IngestQueue", {
  dlq: { queue: ingestDlq.arn, retry: 5 },
  // AWS rejects a visibility timeout below the consumer's timeout; 6× leaves room for retries.
  visibilityTimeout: `${queueVisibilitySeconds(QUEUE_CONSUMER_TIMEOUT_SECONDS)} seconds`,
});

const consumer = singleWorker(workers, "queue");
if (consumer) {
  ingestQueue.subscribe(
    lambdaArgs({
      handler: handlerOf(consumer.module),
      link: linksFor(consumer.module, "queue", { queue: ingestQueue }),
      timeout: `${QUEUE_CONSUMER_TIMEOUT_SECONDS} seconds`,
    }),
    // One poison message must not re-drive its whole batch.
    { batch: { size: 10, partialResponses: true } },
  );
}
