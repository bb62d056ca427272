/**
 * A probe function for test/isolated/links.test.ts, bundled like every function and run with the
 * environment isolated mode gives a real one: it reports whether it sees each link and whether a
 * call to each service goes through.
 */
import { ListExecutionsCommand } from "@aws-sdk/client-sfn";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { resources } from "../../functions/platform/resources.js";
import { sqsClient } from "../../functions/platform/aws-sqs.js";
import { sfnClient } from "../../functions/platform/aws-sfn.js";

const outcome = async (call: () => unknown): Promise<string> => {
  try {
    await call();
    return "ok";
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
};

/** `queueUrl`: a queue of the SQS stand-in; `machineArn`: the state machine of the Step Functions one. */
export const handler = async (event: { queueUrl: string; machineArn: string }) => ({
  queueLink: await outcome(() => resources.ingestQueueUrl()),
  machineLink: await outcome(() => resources.storageMoveMachineArn()),
  tableLink: await outcome(() => resources.mainTable()),
  sqs: await outcome(() => sqsClient().send(new SendMessageCommand({ QueueUrl: event.queueUrl, MessageBody: "probe" }))),
  sfn: await outcome(() => sfnClient().send(new ListExecutionsCommand({ stateMachineArn: event.machineArn, maxResults: 1 }))),
});
