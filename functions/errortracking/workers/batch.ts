/**
 * One SQS batch with partial batch responses (`workers` kind `queue`): records are processed
 * concurrently, each under its message id as the request id; a record whose processing throws is
 * listed in `batchItemFailures` (so SQS retries it alone) after `onFailure` has logged it.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { withRequestId } from "../../platform/log.js";

export async function processBatch(event: SQSEvent, process: (record: SQSRecord) => Promise<unknown>, onFailure: (record: SQSRecord, err: unknown) => Promise<void> | void): Promise<SQSBatchResponse> {
  const failed: string[] = [];
  await Promise.all(
    event.Records.map((record) =>
      withRequestId(record.messageId, async () => {
        try {
          await process(record);
        } catch (err) {
          failed.push(record.messageId);
          await onFailure(record, err);
        }
      }),
    ),
  );
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}
