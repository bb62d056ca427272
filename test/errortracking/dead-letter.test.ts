/**
 * A poison message through a real queue (the SQS stand-in): it is received exactly the configured
 * number of times, then lands in the dead-letter queue, while the batch's other messages are counted.
 * The queue pair copies the ingest queue's redrive policy with a 1-second visibility timeout (the
 * runtime's is 60 s), and the local poller drives the consumer as the event source mapping would.
 */
import { describe, it, expect, afterAll } from "vitest";
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import type { SQSEvent } from "aws-lambda";
import { sqsClient } from "../../functions/platform/aws-sqs.js";
import { handler } from "../../functions/errortracking/workers/consumer.js";
import { pollQueue, type Poller } from "../../local/workers.js";
import { exceptionEvent, listErrors, message, trackedProject } from "./support.js";
import { unique } from "../support/api.js";

let poller: Poller | undefined;
afterAll(async () => poller?.stop());

const url = (name: string) => (JSON.parse(process.env[`SST_RESOURCE_${name}`] ?? "{}") as { url?: string }).url;

describe("ingest queue dead-letter path", () => {
  it("dead-letters a poison message after the configured receives; the others are processed", async () => {
    const sqs = sqsClient();
    expect(url("IngestDeadLetterQueue")).toBeTruthy();
    const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url("IngestQueue"), AttributeNames: ["RedrivePolicy"] }));
    const { maxReceiveCount } = JSON.parse(attrs.Attributes!.RedrivePolicy!) as { maxReceiveCount: number };
    expect(maxReceiveCount).toBe(5);

    const name = unique("et-dlq");
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
    const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ["QueueArn"] }))).Attributes!.QueueArn;
    const main = await sqs.send(
      new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: "1", RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount }) } }),
    );

    const { owner, project, ui } = await trackedProject();
    const good = Array.from({ length: 4 }, () => JSON.stringify(message(project.id, exceptionEvent({ type: "QueuedError" }))));
    const poison = JSON.stringify({ eventId: "not-hex", projectId: project.id });
    await sqs.send(new SendMessageBatchCommand({ QueueUrl: main.QueueUrl, Entries: [...good.slice(0, 2), poison, ...good.slice(2)].map((body, i) => ({ Id: String(i), MessageBody: body })) }));

    let poisonReceives = 0;
    const counting = async (event: SQSEvent) => {
      poisonReceives += event.Records.filter((r) => r.body === poison).length;
      return handler(event);
    };
    poller = pollQueue(sqs, { name, queueUrl: main.QueueUrl!, queueArn: "", handler: counting, waitSeconds: 1 });

    let dead: string[] = [];
    for (let i = 0; i < 60 && dead.length === 0; i++) {
      const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      dead = (out.Messages ?? []).map((m) => m.Body ?? "");
    }
    expect(dead).toEqual([poison]);
    expect(poisonReceives).toBe(maxReceiveCount);
    const [error] = (await listErrors(owner.token, ui)).errors;
    expect(error).toMatchObject({ title: "QueuedError: boom", count: 4 });
    const left = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: main.QueueUrl, AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"] }));
    expect(left.Attributes).toMatchObject({ ApproximateNumberOfMessages: "0", ApproximateNumberOfMessagesNotVisible: "0" });
  });
});
