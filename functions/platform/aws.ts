/**
 * AWS SDK clients, created once per process (module scope, as Lambda best practice wants).
 * Endpoints come from the SDK's standard `AWS_ENDPOINT_URL_<SERVICE>` variables, which the local
 * runtime points at the embedded stand-ins; on AWS they are unset. A client is rebuilt only if its
 * endpoint variable changes (a test that restarts the runtime in one process).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";

/**
 * The SQS and Step Functions clients live in `aws-sqs.ts` and `aws-sfn.ts`: each Lambda bundle then
 * carries only the SDK clients its function uses (most functions need DynamoDB alone).
 */
export function memo<T>(envVar: string, create: (endpoint: string | undefined) => T): () => T {
  let client: T | undefined;
  let builtFor: string | undefined;
  return () => {
    const endpoint = process.env[envVar];
    if (!client || builtFor !== endpoint) {
      client = create(endpoint);
      builtFor = endpoint;
    }
    return client;
  };
}

/** Plain values go in and out through `db/document.ts`, which marshals them for this client. */
export const dynamo = memo("AWS_ENDPOINT_URL_DYNAMODB", (endpoint) => new DynamoDBClient({ endpoint, maxAttempts: 5 }));
