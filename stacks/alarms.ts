/**
 * What pages an operator: one SNS topic (the `alarms` output; subscribe an e-mail or a chat hook to
 * it) and CloudWatch alarms on it for
 * - events that failed five times and wait in the ingest dead-letter queue,
 * - error-tracking hook deliveries that failed every attempt (the hook dead-letter queue),
 * - storage-move executions that failed or timed out,
 * - 5xx answers of the API and of the ingest function URL.
 * Each alarm also says when it is back to OK, and missing data (no traffic) is not an alarm.
 */
import { api, ingest } from "./api";
import { storageMoveMachineArn } from "./jobs";
import { hookDlq, ingestDlq } from "./queues";

export const alarmTopic = new sst.aws.SnsTopic("Alarms");

const notify = { alarmActions: [alarmTopic.arn], okActions: [alarmTopic.arn], treatMissingData: "notBreaching" };

/** Alarms when the sum of `metric` over 5 minutes reaches 1. */
function anyIn5Minutes(name: string, description: string, metric: { namespace: string; metricName: string; dimensions: Record<string, $util.Input<string>> }) {
  return new aws.cloudwatch.MetricAlarm(name, {
    alarmDescription: description,
    ...metric,
    statistic: "Sum",
    period: 300,
    evaluationPeriods: 1,
    threshold: 1,
    comparisonOperator: "GreaterThanOrEqualToThreshold",
    ...notify,
  });
}

/** Alarms while a dead-letter queue holds any message. */
function deadLetters(name: string, description: string, queue: sst.aws.Queue) {
  return new aws.cloudwatch.MetricAlarm(name, {
    alarmDescription: description,
    namespace: "AWS/SQS",
    metricName: "ApproximateNumberOfMessagesVisible",
    // The queue name is the last segment of its URL.
    dimensions: { QueueName: queue.url.apply((url) => url.split("/").pop()!) },
    statistic: "Maximum",
    period: 300,
    evaluationPeriods: 1,
    threshold: 1,
    comparisonOperator: "GreaterThanOrEqualToThreshold",
    ...notify,
  });
}

export const alarms = [
  deadLetters("IngestDlqMessages", "Error-tracking events failed 5 deliveries and wait in the dead-letter queue (inspect, then redrive)", ingestDlq),
  deadLetters(
    "HookDlqMessages",
    "Error-tracking hook deliveries failed every attempt and wait in the dead-letter queue (the receivers were down or refused them)",
    hookDlq,
  ),
  ...(storageMoveMachineArn
    ? [
        anyIn5Minutes("StorageMoveExecutionsFailed", "A storage-move execution failed (its log group has every step)", {
          namespace: "AWS/States",
          metricName: "ExecutionsFailed",
          dimensions: { StateMachineArn: storageMoveMachineArn },
        }),
        anyIn5Minutes("StorageMoveExecutionsTimedOut", "A storage-move execution timed out", {
          namespace: "AWS/States",
          metricName: "ExecutionsTimedOut",
          dimensions: { StateMachineArn: storageMoveMachineArn },
        }),
      ]
    : []),
  anyIn5Minutes("Api5xx", "The API answered 5xx", { namespace: "AWS/ApiGateway", metricName: "5xx", dimensions: { ApiId: api.nodes.api.id } }),
  ...(ingest
    ? [anyIn5Minutes("Ingest5xx", "The ingest function URL answered 5xx", { namespace: "AWS/Lambda", metricName: "Url5xxCount", dimensions: { FunctionName: ingest.name } })]
    : []),
];
