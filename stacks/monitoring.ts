/**
 * What the Sidekiq metrics API (`functions/monitoring/`) reads of the background work, and nothing
 * more: the URLs of the two queues and their dead-letter queues, whose attributes it may read
 * (`sqs:GetQueueAttributes`), and the storage-move state machine, whose executions it may list.
 * Runtime: `Resource.BackgroundWork` (`functions/monitoring/domain/background-work.ts`).
 */
import { hookDlq, hookQueue, ingestDlq, ingestQueue } from "./queues";
import { storageMoveMachineArn } from "./jobs";

export const backgroundWork = new sst.Linkable("BackgroundWork", {
  properties: {
    ingestQueue: ingestQueue.url,
    ingestDlq: ingestDlq.url,
    hookQueue: hookQueue.url,
    hookDlq: hookDlq.url,
    machine: storageMoveMachineArn ?? "",
  },
  include: [
    sst.aws.permission({ actions: ["sqs:GetQueueAttributes"], resources: [ingestQueue.arn, ingestDlq.arn, hookQueue.arn, hookDlq.arn] }),
    ...(storageMoveMachineArn ? [sst.aws.permission({ actions: ["states:ListExecutions"], resources: [storageMoveMachineArn] })] : []),
  ],
});
