/**
 * The SQS consumer of the ingest queue (`workers` kind `queue`; batch size 10 with partial batch
 * responses, see `stacks/queues.ts`). Records are processed concurrently; each one that fails —
 * poison, or a DynamoDB error — is listed in `batchItemFailures` and retried alone by SQS until it
 * lands in the dead-letter queue. Redelivery is harmless: every write is idempotent by event id.
 */
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { describeError, log } from "../../platform/log.js";
import { PoisonMessageError, processMessage } from "../domain/process.js";
import { processBatch } from "./batch.js";

export function handler(event: SQSEvent, _context?: Context): Promise<SQSBatchResponse> {
  return processBatch(
    event,
    (record) => processMessage(record.body),
    (record, err) => {
      // Never log the body: it carries user data (e-mail and IP addresses).
      if (err instanceof PoisonMessageError) log.warn("poison ingest message", { messageId: record.messageId, reason: err.message });
      else log.error("ingest message failed", { messageId: record.messageId, ...describeError(err) });
    },
  );
}
