/** The SQS client, once per process (see `aws.ts`); its own module so only the functions that enqueue bundle it. */
import { SQSClient } from "@aws-sdk/client-sqs";
import { memo } from "./aws.js";

export const sqsClient = memo("AWS_ENDPOINT_URL_SQS", (endpoint) => new SQSClient({ endpoint }));
