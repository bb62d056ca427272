/**
 * End-to-end processing: N = 2,000 valid ingest messages (50 errors, 200 users, Node-sized events)
 * sent to the ingest queue with SendMessageBatch, timed until every event is counted on its error.
 * Consumed as on AWS: the event source mapping's 5 concurrent batches of 10 (the runtime's poller
 * plus four more here), each batch processed concurrently by the consumer handler.
 *
 * Baseline, same run: the DynamoDB stand-in's raw TransactWriteItems rate for transactions of the
 * same items a bench event's transaction holds (event put, error counter update, user marker, the
 * hour's and the day's counters, one counter per tag of the event) at the same 50-way concurrency:
 * DynamoDB Local's time is per item written, so a baseline with fewer items would measure the item
 * count, not the consumer. Target: ≥ 0.5× (issue 4, acceptance 7).
 */
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { GetQueueAttributesCommand, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { sqsClient } from "../functions/platform/aws-sqs.js";
import { getItem, transact } from "../functions/platform/db/table.js";
import { saveSetting } from "../functions/errortracking/domain/settings.js";
import { parseEvent } from "../functions/errortracking/domain/event.js";
import { eventTags } from "../functions/errortracking/domain/tags.js";
import { errorKey } from "../functions/errortracking/domain/keys.js";
import { instanceConfig } from "../functions/platform/config.js";
import { handler } from "../functions/errortracking/workers/consumer.js";
import { pollQueue } from "../local/workers.js";
import type { IngestMessage } from "../functions/errortracking/domain/contracts.js";

interface Ctx {
  baseUrl: string;
  adminToken: string;
}
export interface Measure {
  name: string;
  baseline: string;
  value: number;
  baselineValue: number;
  unit: string;
}

const N = 2000;
const ERRORS = 50;
const CONCURRENT_BATCHES = 5;
const frames = Array.from({ length: 12 }, (_, i) => ({ filename: `/srv/app/src/m${i}.js`, module: `m${i}`, function: `handler${i}`, lineno: 10 + i, colno: 5, in_app: i > 6, pre_context: ["a();", "b();"], context_line: "  throw new TypeError('boom');", post_context: ["c();"] }));

function messages(projectId: number): IngestMessage[] {
  const receivedAt = new Date().toISOString();
  return Array.from({ length: N }, (_, i) => ({
    eventId: randomBytes(16).toString("hex"),
    projectId,
    keyId: 1,
    receivedAt,
    kind: "event" as const,
    payload: {
      timestamp: Date.now() / 1000 - (N - i) / 1000,
      platform: "node",
      level: "error",
      release: "bench@1.0.0",
      environment: "bench",
      user: { id: String(i % 200), email: `user${i % 200}@example.com` },
      exception: { values: [{ type: `BenchError${i % ERRORS}`, value: "bench exception", stacktrace: { frames } }] },
      breadcrumbs: { values: Array.from({ length: 5 }, (_, j) => ({ timestamp: Date.now() / 1000, category: "console", message: `step ${j}` })) },
    },
  }));
}

const url = (name: string) => (JSON.parse(process.env[`SST_RESOURCE_${name}`] ?? "{}") as { url: string }).url;

async function queueEmpty(): Promise<boolean> {
  const a = (await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: url("IngestQueue"), AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"] }))).Attributes ?? {};
  return a.ApproximateNumberOfMessages === "0" && a.ApproximateNumberOfMessagesNotVisible === "0";
}

async function counted(projectId: number, errorIds: number[]): Promise<number> {
  const items = await Promise.all(errorIds.map((id) => getItem<{ eventsCount?: number }>(errorKey(projectId, id).pk, "ERROR", false)));
  return items.reduce((sum, it) => sum + (it?.eventsCount ?? 0), 0);
}

/** End to end through the queue: events/s from the first send to the last count. */
export async function endToEnd(projectId: number): Promise<number> {
  const batch = messages(projectId);
  const errorIds = [...new Set(batch.map((m) => parseEvent(projectId, m.payload, m.receivedAt).errorId))];
  for (let i = 0; i < 100 && !(await queueEmpty()); i++) await new Promise((r) => setTimeout(r, 200)); // earlier benches' messages
  const extra = Array.from({ length: CONCURRENT_BATCHES - 1 }, (_, i) => pollQueue(sqsClient(), { name: `bench-${i}`, queueUrl: url("IngestQueue"), queueArn: "", handler, waitSeconds: 1 }));
  const started = performance.now();
  const chunks = Array.from({ length: N / 10 }, (_, i) => batch.slice(i * 10, i * 10 + 10));
  for (let i = 0; i < chunks.length; i += 8) {
    await Promise.all(chunks.slice(i, i + 8).map((c) => sqsClient().send(new SendMessageBatchCommand({ QueueUrl: url("IngestQueue"), Entries: c.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })) }))));
  }
  const deadline = Date.now() + 300_000;
  let done = 0;
  while ((done = await counted(projectId, errorIds)) < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(extra.map((p) => p.stop()));
  // Exactly N: fewer is a lost event, more a double count — either makes the rate meaningless.
  if (done !== N) throw new Error(`error tracking bench: ${done} of ${N} events counted`);
  return N / seconds;
}

/** The same items per transaction as a bench event's, written raw by 50 concurrent writers. */
async function rawTransactions(): Promise<{ rate: number; itemsPerEvent: number }> {
  const sample = messages(1)[0]!;
  const payloadGz = gzipSync(JSON.stringify(sample.payload));
  const tags = eventTags(sample.payload, parseEvent(1, sample.payload, sample.receivedAt));
  const run = `BENCH#${randomBytes(4).toString("hex")}`;
  let next = 0;
  const started = performance.now();
  const counter = (pk: string, sk: string) => ({ Update: { Key: { pk, sk }, UpdateExpression: "ADD eventsCount :one", ExpressionAttributeValues: { ":one": 1 } } });
  const worker = async () => {
    for (let i = next++; i < N; i = next++) {
      const error = `${run}#ERR#${i % ERRORS}`;
      await transact([
        { Put: { Item: { pk: `${run}#EV#${i}`, sk: "EVENT", payloadGz, n: i } } },
        { Update: { Key: { pk: error, sk: "ERROR" }, UpdateExpression: "ADD eventsCount :one SET lastSeen = :t", ExpressionAttributeValues: { ":one": 1, ":t": new Date().toISOString() } } },
        { Put: { Item: { pk: error, sk: `USER#${i % 200}` } } },
        counter(error, "HOUR#bench"),
        counter(error, "DAY#bench"),
        ...tags.map(([key, value]) => counter(error, `TAG#${key}#${value}`)),
      ]);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_BATCHES * 10 }, worker));
  return { rate: N / ((performance.now() - started) / 1000), itemsPerEvent: 5 + tags.length };
}

export async function run(ctx: Ctx): Promise<Measure[]> {
  const headers = { "Private-Token": ctx.adminToken, "Content-Type": "application/json" };
  const res = await fetch(`${ctx.baseUrl}/api/v4/projects`, { method: "POST", headers, body: JSON.stringify({ name: `et-bench-${randomBytes(3).toString("hex")}` }) });
  const projectId = ((await res.json()) as { id: number }).id;
  await saveSetting(projectId, { active: true, integrated: true }, { create: true, config: { ...instanceConfig(), offering: "hosted" } });
  const baseline = await rawTransactions();
  const value = await endToEnd(projectId);
  return [
    {
      name: `end-to-end processing: ${N} events via SQS → consumer → counted (${CONCURRENT_BATCHES} concurrent batches of 10)`,
      baseline: `DynamoDB stand-in, raw TransactWriteItems of the same ${baseline.itemsPerEvent} items per event, 50 concurrent`,
      value,
      baselineValue: baseline.rate,
      unit: "events/s",
    },
  ];
}

/** The row shape `bench/run.ts` prints. */
export async function rows(ctx: Ctx) {
  return (await run(ctx)).map((m) => ({
    benchmark: m.name,
    baseline: m.baseline,
    value: `${m.value.toFixed(0)} ${m.unit}`,
    baselineValue: `${m.baselineValue.toFixed(0)} ${m.unit}`,
    ratio: m.value / m.baselineValue,
  }));
}
