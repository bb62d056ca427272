/**
 * The SQS consumer of the ingest queue (`workers` kind `queue`; large batches with partial batch
 * responses, see `QUEUE_BATCHING` in `functions/route-spec.ts`). The batch is recorded per error
 * (`../domain/process.ts`); each message that fails — poison, or a group DynamoDB could not take
 * before the deadline — is listed in `batchItemFailures` and retried alone by SQS until it lands in
 * the dead-letter queue. Redelivery is harmless: every write is idempotent by event id.
 */
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { describeError, log } from "../../platform/log.js";
import { PoisonMessageError, processIngestBatch } from "../domain/process.js";

/** Time kept back from the invocation's own timeout: a group still retrying conflicts then gives up, and its messages come back. */
const DEADLINE_MARGIN_MS = 5_000;
/** Without a Lambda context (a direct call): the consumer's 60 s timeout. */
const DEFAULT_REMAINING_MS = 60_000;

export async function handler(event: SQSEvent, context?: Context): Promise<SQSBatchResponse> {
  const remaining = context?.getRemainingTimeInMillis?.() ?? DEFAULT_REMAINING_MS;
  const deadline = Date.now() + Math.max(remaining - DEADLINE_MARGIN_MS, remaining / 2);
  const { failures } = await processIngestBatch(event.Records, deadline);
  for (const { messageId, error } of failures) {
    // Never log the body: it carries user data (e-mail and IP addresses).
    if (error instanceof PoisonMessageError) log.warn("poison ingest message", { messageId, reason: error.message });
    else log.error("ingest message failed", { messageId, ...describeError(error) });
  }
  return { batchItemFailures: failures.map(({ messageId }) => ({ itemIdentifier: messageId })) };
}
