/**
 * Event processing, end to end: valid ingest messages sent to the ingest queue with
 * SendMessageBatch (what the collector sends once it has accepted an event), timed from the first
 * send until every event is counted on its error. Consumed as on AWS: the runtime's pollers gather
 * batches as the event source mapping does (`QUEUE_BATCHING.IngestQueue`: size, window, concurrency).
 *
 * - **Storm**: N events of ONE error (distinct event ids, 106 users, Node-sized events), the burst an
 *   error tracker sees most. Baseline, same run and same concurrency as the consumer: N raw
 *   single-item PutItems on the same DynamoDB stand-in, one plain write per event. Target ≥ 0.5×.
 * - **Spread**: the same N events over 500 errors. Baseline as the per-event design's row had it: raw
 *   TransactWriteItems of the items one event's own transaction holds (event put, error update, user
 *   marker, hour, day, a counter per tag), 50 concurrent (DynamoDB Local's time is per item written).
 *   Target: not slower than that row was (0.88×).
 * - **Write cost** of the storm, counted on the consumer's own DynamoDB client (a middleware that sees
 *   every committed write): items written per event (target ≤ 2), and writes to the hottest item per
 *   1,000 events (target ≤ 20), each against what one transaction per event writes.
 */
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { GetQueueAttributesCommand, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { sqsClient } from "../functions/platform/aws-sqs.js";
import { dynamo } from "../functions/platform/aws.js";
import { getItems, putItem, transact } from "../functions/platform/db/table.js";
import { saveSetting } from "../functions/errortracking/domain/settings.js";
import { parseEvent } from "../functions/errortracking/domain/event.js";
import { eventTags } from "../functions/errortracking/domain/tags.js";
import { errorKey } from "../functions/errortracking/domain/keys.js";
import { instanceConfig } from "../functions/platform/config.js";
import { mapConcurrently } from "../functions/platform/concurrency.js";
import { QUEUE_BATCHING } from "../stacks/plan.js";
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
  note?: string;
  higherIsBetter?: boolean;
}

const N = 2000;
const STORM_USERS = 106;
const SPREAD_ERRORS = 500;
const SENDERS = 8;
/** The consumers the event source runs at once, and so the baseline's writers. */
const CONSUMERS = QUEUE_BATCHING.IngestQueue.maximumConcurrency ?? 1;
const frames = Array.from({ length: 12 }, (_, i) => ({ filename: `/srv/app/src/m${i}.js`, module: `m${i}`, function: `handler${i}`, lineno: 10 + i, colno: 5, in_app: i > 6, pre_context: ["a();", "b();"], context_line: "  throw new TypeError('boom');", post_context: ["c();"] }));

function messages(projectId: number, errors: number, users: number): IngestMessage[] {
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
      user: { id: String(i % users), email: `user${i % users}@example.com` },
      exception: { values: [{ type: `BenchError${i % errors}`, value: "bench exception", stacktrace: { frames } }] },
      breadcrumbs: { values: Array.from({ length: 5 }, (_, j) => ({ timestamp: Date.now() / 1000, category: "console", message: `step ${j}` })) },
    },
  }));
}

const url = (name: string) => (JSON.parse(process.env[`SST_RESOURCE_${name}`] ?? "{}") as { url: string }).url;

async function queueEmpty(): Promise<boolean> {
  const a = (await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: url("IngestQueue"), AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"] }))).Attributes ?? {};
  return a.ApproximateNumberOfMessages === "0" && a.ApproximateNumberOfMessagesNotVisible === "0";
}

/** The errors' counts, in BatchGetItems of 100 (a GetItem each would compete with the consumer being measured). */
async function counted(projectId: number, errorIds: number[]): Promise<number> {
  const items = await getItems<{ eventsCount?: number }>(errorIds.map((id) => errorKey(projectId, id)), false);
  return items.reduce((sum, item) => sum + (item?.eventsCount ?? 0), 0);
}

/**
 * Every write the process's DynamoDB client commits, by item (`pk sk`): the consumer runs in this
 * process (one-process runtime), so this is what it writes, not an estimate.
 */
class WriteCounter {
  readonly byItem = new Map<string, number>();
  private on = false;
  constructor() {
    const key = (k: Record<string, AttributeValue> | undefined) => `${k?.pk?.S} ${k?.sk?.S}`;
    dynamo().middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (!this.on) return out;
        const input = args.input as Record<string, any>;
        const written: string[] = [];
        if (context.commandName === "TransactWriteItemsCommand") {
          for (const item of input.TransactItems ?? []) {
            if (item.Put) written.push(key(item.Put.Item));
            if (item.Update) written.push(key(item.Update.Key));
            if (item.Delete) written.push(key(item.Delete.Key));
          }
        } else if (context.commandName === "PutItemCommand") written.push(key(input.Item));
        else if (context.commandName === "UpdateItemCommand" || context.commandName === "DeleteItemCommand") written.push(key(input.Key));
        else if (context.commandName === "BatchWriteItemCommand") {
          for (const writes of Object.values(input.RequestItems ?? {}) as any[]) for (const w of writes) written.push(key(w.PutRequest?.Item ?? w.DeleteRequest?.Key));
        }
        for (const k of written) this.byItem.set(k, (this.byItem.get(k) ?? 0) + 1);
        return out;
      },
      { step: "initialize", name: "benchWriteCounter" },
    );
  }
  start() {
    this.byItem.clear();
    this.on = true;
  }
  stop() {
    this.on = false;
    const total = [...this.byItem.values()].reduce((a, b) => a + b, 0);
    const [hottest, writes] = [...this.byItem].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
    return { total, hottest, writes };
  }
}
let counter: WriteCounter | undefined;

/** End to end through the queue: events/s from the first send to the last count. */
export async function endToEnd(projectId: number, batch: IngestMessage[] = messages(projectId, 50, 200)): Promise<number> {
  const errorIds = [...new Set(batch.map((m) => parseEvent(projectId, m.payload, m.receivedAt).errorId))];
  for (let i = 0; i < 100 && !(await queueEmpty()); i++) await new Promise((r) => setTimeout(r, 200)); // earlier benches' messages
  const started = performance.now();
  const chunks = Array.from({ length: Math.ceil(batch.length / 10) }, (_, i) => batch.slice(i * 10, i * 10 + 10));
  await mapConcurrently(chunks, SENDERS, (c) => sqsClient().send(new SendMessageBatchCommand({ QueueUrl: url("IngestQueue"), Entries: c.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })) })));
  const deadline = Date.now() + 300_000;
  let done = 0;
  while ((done = await counted(projectId, errorIds)) < batch.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const seconds = (performance.now() - started) / 1000;
  // Exactly N: fewer is a lost event, more a double count — either makes the rate meaningless.
  if (done !== batch.length) throw new Error(`error tracking bench: ${done} of ${batch.length} events counted`);
  return batch.length / seconds;
}

/** N raw single-item PutItems of event-sized items, `CONSUMERS` writers at once. */
async function rawPuts(sample: IngestMessage): Promise<number> {
  const payloadGz = gzipSync(JSON.stringify(sample.payload));
  const run = `BENCH#${randomBytes(4).toString("hex")}`;
  const started = performance.now();
  await mapConcurrently(Array.from({ length: N }, (_, i) => i), CONSUMERS, (i) => putItem({ pk: `${run}#EV#${i}`, sk: "EVENT", payloadGz, n: i }));
  return N / ((performance.now() - started) / 1000);
}

/** The items one event's own transaction held in the per-event design, written raw by 50 concurrent writers. */
async function rawTransactions(sample: IngestMessage): Promise<{ rate: number; itemsPerEvent: number }> {
  const payloadGz = gzipSync(JSON.stringify(sample.payload));
  const tags = eventTags(sample.payload, parseEvent(1, sample.payload, sample.receivedAt));
  const run = `BENCH#${randomBytes(4).toString("hex")}`;
  const started = performance.now();
  const add = (pk: string, sk: string) => ({ Update: { Key: { pk, sk }, UpdateExpression: "ADD eventsCount :one", ExpressionAttributeValues: { ":one": 1 } } });
  await mapConcurrently(Array.from({ length: N }, (_, i) => i), 50, async (i) => {
    const error = `${run}#ERR#${i % SPREAD_ERRORS}`;
    await transact([
      { Put: { Item: { pk: `${run}#EV#${i}`, sk: "EVENT", payloadGz, n: i } } },
      { Update: { Key: { pk: error, sk: "ERROR" }, UpdateExpression: "ADD eventsCount :one SET lastSeen = :t", ExpressionAttributeValues: { ":one": 1, ":t": new Date().toISOString() } } },
      { Put: { Item: { pk: error, sk: `USER#${i % 200}` } } },
      add(error, "HOUR#bench"),
      add(error, "DAY#bench"),
      ...tags.map(([key, value]) => add(error, `TAG#${key}#${value}`)),
    ]);
  });
  return { rate: N / ((performance.now() - started) / 1000), itemsPerEvent: 5 + tags.length };
}

async function trackedProject(ctx: Ctx): Promise<number> {
  const headers = { "Private-Token": ctx.adminToken, "Content-Type": "application/json" };
  const res = await fetch(`${ctx.baseUrl}/api/v4/projects`, { method: "POST", headers, body: JSON.stringify({ name: `et-bench-${randomBytes(3).toString("hex")}` }) });
  const projectId = ((await res.json()) as { id: number }).id;
  await saveSetting(projectId, { active: true, integrated: true }, { create: true, config: { ...instanceConfig(), offering: "hosted" } });
  return projectId;
}

export async function run(ctx: Ctx): Promise<Measure[]> {
  counter ??= new WriteCounter();
  const batching = `batches of up to ${QUEUE_BATCHING.IngestQueue.size} gathered for ${QUEUE_BATCHING.IngestQueue.windowSeconds} s, ${CONSUMERS} at once`;

  const stormProject = await trackedProject(ctx);
  const storm = messages(stormProject, 1, STORM_USERS);
  const puts = await rawPuts(storm[0]!);
  counter.start();
  const stormRate = await endToEnd(stormProject, storm);
  const writes = counter.stop();
  const perEventDesign = 5 + eventTags(storm[0]!.payload, parseEvent(stormProject, storm[0]!.payload, storm[0]!.receivedAt)).length;

  const spreadProject = await trackedProject(ctx);
  const spread = messages(spreadProject, SPREAD_ERRORS, 200);
  const transactions = await rawTransactions(spread[0]!);
  const spreadRate = await endToEnd(spreadProject, spread);

  return [
    {
      name: `Error storm: ${N} events of one error via SQS → consumer → counted (${STORM_USERS} users; ${batching})`,
      baseline: `DynamoDB stand-in, ${N} raw single-item PutItems of event-sized items, ${CONSUMERS} concurrent (the consumer's concurrency)`,
      value: stormRate,
      baselineValue: puts,
      unit: "events/s",
      note: "target ≥ 0.5×",
    },
    {
      name: `Error spread: ${N} events over ${SPREAD_ERRORS} errors via SQS → consumer → counted (${batching})`,
      baseline: `DynamoDB stand-in, raw TransactWriteItems of one event's own ${transactions.itemsPerEvent} items (the per-event design), 50 concurrent`,
      value: spreadRate,
      baselineValue: transactions.rate,
      unit: "events/s",
      note: "target: not below the per-event design's 0.88×",
    },
    {
      name: `Error storm write cost: DynamoDB items written per event (${N} events of one error, counted on the consumer's client)`,
      baseline: `one transaction per event: the event, the error, a user marker, the hour, the day, ${perEventDesign - 5} tags`,
      value: writes.total / N,
      baselineValue: perEventDesign,
      unit: "items/event",
      higherIsBetter: false,
      note: `target ≤ 2 items per event; ${writes.total} items written in all`,
    },
    {
      name: `Error storm hot item: writes to the most written item per 1,000 storm events`,
      baseline: "one transaction per event: every event writes the error item",
      value: (writes.writes / N) * 1000,
      baselineValue: 1000,
      unit: "writes",
      higherIsBetter: false,
      note: `target ≤ 20; the hottest item: ${writes.hottest.replace(/#\d+#\d+ /, "#<project>#<error> ")}`,
    },
  ];
}
