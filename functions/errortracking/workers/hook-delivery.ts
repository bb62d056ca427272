/**
 * The consumer of `HookQueue` (`workers` kind `queue`, batch of 10 with partial batch responses):
 * one message = one delivery of one hook. A failed attempt that is worth repeating (no answer, 5xx,
 * 429) stays on the queue with exponential backoff — the message's visibility is pushed out to
 * `FORGELINE_HOOK_RETRY_BASE_SECONDS` × 2^(receives − 1), at most 15 minutes — until the queue's
 * receive limit moves it to the dead-letter queue. A copy whose delivery a live sender holds (its
 * lock, `hooks/delivery.ts`) is not dropped either: it comes back once that lock has expired, to find
 * the delivery delivered, or to send it if its sender died. Ingestion never waits on any of this.
 */
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { ChangeMessageVisibilityCommand } from "@aws-sdk/client-sqs";
import * as z from "zod/mini";
import { sqsClient } from "../../platform/aws-sqs.js";
import { describeError, log } from "../../platform/log.js";
import { processBatch } from "./batch.js";
import { countJobs } from "../../platform/job-stats.js";
import { findProject } from "../../hosting/domain/projects.js";
import { findHook } from "../hooks/store.js";
import { attempt, buildPayload, claimDelivery, triggerContext } from "../hooks/delivery.js";
import { hookQueueUrl, type DeliveryMessage } from "../hooks/enqueue.js";

const triggerSchema = z.union([
  z.object({ kind: z.literal("new_error"), errorId: z.number() }),
  z.object({ kind: z.literal("regression"), errorId: z.number(), resolvedAt: z.string() }),
  z.object({ kind: z.literal("threshold"), errorId: z.number(), windowSeconds: z.number(), windowStart: z.string(), threshold: z.number() }),
]);
const messageSchema = z.object({ deliveryId: z.string(), projectId: z.number(), hookId: z.number(), eventId: z.string(), trigger: triggerSchema });

const MAX_BACKOFF_SECONDS = 900;
const retryBase = () => Number(process.env.FORGELINE_HOOK_RETRY_BASE_SECONDS ?? 10);

class RetryLater extends Error {}
/** Another sender holds the delivery's lock until `until` (ms). */
class HeldElsewhere extends Error {
  constructor(readonly until: number) {
    super("held by another sender");
  }
}

async function deliver(record: SQSRecord): Promise<void> {
  let json: unknown;
  try {
    json = JSON.parse(record.body);
  } catch {
    json = undefined;
  }
  const parsed = messageSchema.safeParse(json);
  if (!parsed.success) {
    // Nothing to retry: the consumer never writes such a message.
    log.warn("malformed hook delivery dropped", { messageId: record.messageId });
    return;
  }
  const m: DeliveryMessage = parsed.data;
  const [hook, project] = await Promise.all([findHook(m.projectId, m.hookId), findProject(m.projectId)]);
  // Deleted hook or project, or the flag switched off meanwhile: nothing is owed any more.
  if (!hook || !project || !hook.flags.error_tracking_events) return;
  const { error, event } = await triggerContext(m.projectId, m.trigger.errorId, m.eventId);
  // The event's transaction committed before this was enqueued; a missing event is one retention removed.
  if (!event) return;
  const claim = await claimDelivery({ deliveryId: m.deliveryId, hookId: hook.id, projectId: m.projectId, trigger: "error_tracking_events", url: hook.url });
  if ("delivered" in claim) return;
  if ("heldUntil" in claim) throw new HeldElsewhere(claim.heldUntil);
  const result = await attempt(hook, claim.claimed, buildPayload(hook, project, error, m.eventId, event, m.trigger));
  if (!result.ok && result.retryable) throw new RetryLater(result.status);
}

/** The retry's backoff: base × 2^(receives − 1), at most 15 minutes. */
function backoffSeconds(record: SQSRecord): number {
  const receives = Number(record.attributes?.ApproximateReceiveCount ?? 1) || 1;
  return Math.min(MAX_BACKOFF_SECONDS, retryBase() * 2 ** (receives - 1));
}

/** The message comes back on the queue in `seconds` (its visibility pushed out). */
async function returnIn(record: SQSRecord, seconds: number): Promise<void> {
  await sqsClient()
    .send(new ChangeMessageVisibilityCommand({ QueueUrl: hookQueueUrl(), ReceiptHandle: record.receiptHandle, VisibilityTimeout: Math.round(seconds) }))
    .catch((err) => log.warn("hook message's return to the queue not set", { messageId: record.messageId, ...describeError(err) }));
}

export async function handler(event: SQSEvent, _context?: Context): Promise<SQSBatchResponse> {
  const response = await processBatch(event, deliver, async (record, err) => {
    if (err instanceof HeldElsewhere) {
      log.info("hook delivery held by another sender; comes back when its lock expires", { messageId: record.messageId });
      // A second past the lock's expiry, so the copy does not find it held again.
      return returnIn(record, Math.ceil((err.until - Date.now()) / 1000) + 1);
    }
    if (err instanceof RetryLater) log.info("hook delivery will be retried", { messageId: record.messageId, status: err.message });
    else log.error("hook delivery failed", { messageId: record.messageId, ...describeError(err) });
    await returnIn(record, backoffSeconds(record));
  });
  // Sidekiq's processed and failed (GET /sidekiq/job_stats): one write for the batch.
  await countJobs(event.Records.length, response.batchItemFailures.length);
  return response;
}
