/**
 * AWS SDK clients, created once per process (module scope, as Lambda best practice wants).
 * Endpoints come from the SDK's standard `AWS_ENDPOINT_URL_<SERVICE>` variables, which the local
 * runtime points at the embedded stand-ins; on AWS they are unset.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import { SFNClient } from "@aws-sdk/client-sfn";

let ddb: DynamoDBDocumentClient | undefined;
let sqs: SQSClient | undefined;
let sfn: SFNClient | undefined;

export function dynamo(): DynamoDBDocumentClient {
  ddb ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB, maxAttempts: 5 }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  return ddb;
}

export function sqsClient(): SQSClient {
  sqs ??= new SQSClient({ endpoint: process.env.AWS_ENDPOINT_URL_SQS });
  return sqs;
}

export function sfnClient(): SFNClient {
  sfn ??= new SFNClient({ endpoint: process.env.AWS_ENDPOINT_URL_SFN });
  return sfn;
}
