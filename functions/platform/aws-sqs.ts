/** The SQS client, once per process (see `aws.ts`); its own module so only the functions that enqueue bundle it. */
import { SQSClient } from "@aws-sdk/client-sqs";
import { memo } from "./aws.js";

/**
 * An attempt is abandoned after this long, so a stuck connection cannot hold its callers; with the
 * SDK's standard three attempts a call gives up within about 10 s.
 */
export const SQS_REQUEST_TIMEOUT_MS = 3_000;

/**
 * Tuned for ingestion's hot path, where the SDK's own CPU per call dominated the request (measured
 * with `bench/ingest.ts`):
 *  - `cacheMiddleware`: the middleware stack is resolved once per command class instead of per call.
 *    It applies only to calls made without per-call options, hence the timeout on the handler.
 *  - `md5: false`: the SDK would hash every message body it sends and receives to compare with the
 *    MD5 digests SQS answers with, a check against corruption in transit that TLS already makes.
 *  - `requestTimeout`: per attempt, on the handler (a per-call `abortSignal` defeats the cache). No
 *    caller long-polls through this client: the consumer is fed by Lambda's event source mapping.
 */
export const sqsClient = memo(
  "AWS_ENDPOINT_URL_SQS",
  (endpoint) => new SQSClient({ endpoint, cacheMiddleware: true, md5: false, requestHandler: { requestTimeout: SQS_REQUEST_TIMEOUT_MS, throwOnRequestTimeout: true } }),
);
