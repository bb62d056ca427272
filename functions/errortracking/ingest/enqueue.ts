/**
 * Sends queue bodies to the ingest queue, batching by group commit: one SQS call in flight per
 * instance; bodies that arrive meanwhile wait for it and leave together in one `SendMessageBatch`
 * (≤ 10 entries, ≤ 256 KiB, SQS's limits). Under load batches fill up (≈ 8 bodies per call at 16
 * concurrent requests locally), and the SDK's per-call cost (≈ 0.6 ms of CPU with the local stand-in,
 * whatever the batch size) is shared; a lone body (one request per Lambda instance) never waits on
 * a timer. A call gives up within about 10 s (the client's request timeout, `aws-sqs.ts`) so a stuck
 * connection cannot hold requests forever. `enqueue` resolves only when SQS accepted
 * every one of its bodies, so the collector answers 200 only for data that is safely queued;
 * entries SQS failed on its side are retried twice, then the caller gets `Unavailable` (503).
 */
import { SendMessageBatchCommand, SendMessageCommand, type BatchResultErrorEntry } from "@aws-sdk/client-sqs";
import { sqsClient } from "../../platform/aws-sqs.js";
import { resources } from "../../platform/resources.js";
import { Unavailable } from "./problem.js";

interface Pending {
  body: string;
  bytes: number;
  attempts: number;
  done: (err?: unknown) => void;
}

const MAX_ENTRIES = 10;
const MAX_BATCH_BYTES = 256 * 1024;
const MAX_ATTEMPTS = 3;
/** More calls in flight mean smaller batches and more CPU per body (measured: 8 vs 4 bodies a call). */
const MAX_IN_FLIGHT = Number(process.env.FORGELINE_INGEST_SQS_IN_FLIGHT ?? 1) || 1;

let waiting: Pending[] = [];
let scheduled = false;
let inFlight = 0;

export function enqueue(bodies: string[]): Promise<void> {
  return Promise.all(
    bodies.map(
      (body) =>
        new Promise<void>((resolve, reject) => {
          waiting.push({ body, bytes: Buffer.byteLength(body), attempts: 0, done: (err) => (err ? reject(err) : resolve()) });
          schedule();
        }),
    ),
  ).then(() => undefined);
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(flush);
}

/** Takes the next batch off the head of the waiting list, within SQS's count and size limits. */
function nextBatch(): Pending[] {
  let n = 0;
  let bytes = 0;
  while (n < waiting.length && n < MAX_ENTRIES && bytes + waiting[n]!.bytes <= MAX_BATCH_BYTES) bytes += waiting[n++]!.bytes;
  return waiting.splice(0, Math.max(1, n));
}

/**
 * Group commit: at most `MAX_IN_FLIGHT` calls at once; bodies arriving meanwhile wait for a free
 * slot and leave together, so batches grow with load while a lone body never waits on a timer.
 */
function flush(): void {
  scheduled = false;
  while (waiting.length > 0 && inFlight < MAX_IN_FLIGHT) {
    const batch = nextBatch();
    inFlight++;
    void send(batch).finally(() => {
      inFlight--;
      if (waiting.length > 0) schedule();
    });
  }
}

async function send(batch: Pending[]): Promise<void> {
  let queueUrl: string;
  try {
    queueUrl = resources.ingestQueueUrl();
  } catch (err) {
    batch.forEach((p) => p.done(new Unavailable("SQS", { cause: err })));
    return;
  }
  try {
    if (batch.length === 1) {
      await sqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: batch[0]!.body }));
      batch[0]!.done();
      return;
    }
    const out = await sqsClient().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: batch.map((p, i) => ({ Id: String(i), MessageBody: p.body })) }));
    const seen = new Set<string>();
    for (const ok of out.Successful ?? []) {
      seen.add(ok.Id!);
      batch[Number(ok.Id)]?.done();
    }
    for (const failed of out.Failed ?? []) {
      seen.add(failed.Id!);
      retryOrFail(batch[Number(failed.Id)], failed);
    }
    // An entry SQS reported neither way is not known to be queued.
    batch.forEach((p, i) => seen.has(String(i)) || p.done(new Unavailable("SQS (unreported entry)")));
  } catch (err) {
    // The SDK has already retried transient errors (its standard retry strategy).
    batch.forEach((p) => p.done(new Unavailable("SQS", { cause: err })));
  }
}

function retryOrFail(p: Pending | undefined, failure: BatchResultErrorEntry): void {
  if (!p) return;
  p.attempts += 1;
  if (failure.SenderFault || p.attempts >= MAX_ATTEMPTS) {
    p.done(new Unavailable(`SQS (${String(failure.Code ?? "failed")})`));
    return;
  }
  waiting.push(p);
  schedule();
}
