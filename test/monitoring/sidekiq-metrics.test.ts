/**
 * GitLab's Sidekiq metrics API over this service's background work: the queue consumers, the
 * storage-move state machine and the group-deletion job as processes, `busy` while they work; the
 * SQS queues' backlogs; processed, failed, enqueued and dead jobs. On a runtime of its own whose
 * queue consumers are off, so messages stay where the test puts them.
 */
import { describe, it, expect, beforeAll, afterAll, vi } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { defaultLocalConfig, startRuntime, type Runtime } from "../../local/runtime.js";
import { putItem, updateItem, deleteItem } from "../../functions/platform/db/table.js";
import { PENDING_GROUP_DELETIONS, pendingGroupDeletionKey } from "../../functions/hosting/domain/keys.js";
import { JOB_STATS_KEY } from "../../functions/platform/job-stats.js";
import { requestAt } from "../support/api.js";
import { QUEUE_BATCHING } from "../../functions/route-spec.js";
import { dynamo } from "../../functions/platform/aws.js";
import { sqsClient } from "../../functions/platform/aws-sqs.js";
import { sfnClient } from "../../functions/platform/aws-sfn.js";
import { createApp } from "../../functions/platform/http/app.js";
import { mountEndpoint } from "../../functions/platform/http/lambda.js";
import * as queueMetricsRoute from "../../functions/monitoring/http/queue-metrics.js";
import * as jobStatsRoute from "../../functions/monitoring/http/job-stats.js";
import * as processMetricsRoute from "../../functions/monitoring/http/process-metrics.js";
import * as compoundMetricsRoute from "../../functions/monitoring/http/compound-metrics.js";

let runtime: Runtime;
let dataDir: string;
let token: string;
let sqs: SQSClient;
const queues = () => JSON.parse(process.env.SST_RESOURCE_BackgroundWork!) as { ingestQueue: string; ingestDlq: string; hookQueue: string; hookDlq: string };
const get = (path: string, as = token) => requestAt(runtime.baseUrl, "GET", `/api/v4/sidekiq/${path}`, { token: as });
const busyOf = async (hostname: string) => ((await get("process_metrics")).body.processes as Array<{ hostname: string; busy: number }>).find((p) => p.hostname === hostname)!.busy;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "forgeline-sidekiq-"));
  runtime = await startRuntime({ dataDir, persistent: false, config: defaultLocalConfig(dataDir), workers: false });
  token = runtime.bootstrap.token!;
  sqs = new SQSClient({ endpoint: process.env.AWS_ENDPOINT_URL_SQS, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
}, 120_000);
afterAll(async () => {
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the Sidekiq metrics API", () => {
  it("answers GitLab's shapes, idle, with every total present", async () => {
    const queueMetrics = await get("queue_metrics");
    expect(queueMetrics).toMatchObject({ status: 200 });
    expect(queueMetrics.body).toEqual({
      queues: { default: { backlog: 0, latency: 0 }, error_tracking_ingest: { backlog: 0, latency: 0 }, web_hook: { backlog: 0, latency: 0 } },
    });
    const processes = (await get("process_metrics")).body.processes;
    expect(processes.map((p: { hostname: string }) => p.hostname)).toEqual(["ingest-consumer", "hook-delivery", "storage-moves", "group-deletions"]);
    for (const p of processes) {
      expect(Object.keys(p).sort()).toEqual(["busy", "concurrency", "hostname", "labels", "pid", "queues", "started_at", "tag"]);
      expect(p).toMatchObject({ busy: 0, tag: "forgeline", pid: null, started_at: null, labels: [expect.any(String)], queues: [expect.any(String)], concurrency: expect.any(Number) });
    }
    // `busy` counts in-flight messages, so `concurrency` is every message the consumers hold at once.
    const ingest = QUEUE_BATCHING.IngestQueue;
    expect(processes[0].concurrency).toBe(ingest.size * ingest.maximumConcurrency!);
    expect((await get("job_stats")).body).toEqual({ jobs: { processed: 0, failed: 0, enqueued: 0, dead: 0 } });
    const compound = await get("compound_metrics");
    expect(Object.keys(compound.body).sort()).toEqual(["jobs", "processes", "queues"]);
    expect(compound.body.queues).toEqual(queueMetrics.body.queues);
    const head = await requestAt(runtime.baseUrl, "HEAD", "/api/v4/sidekiq/job_stats", { token });
    expect(head.status).toBe(200);
  });

  it("reads for each route only what it shows", async () => {
    const app = createApp();
    const routes = { queue_metrics: queueMetricsRoute, job_stats: jobStatsRoute, process_metrics: processMetricsRoute, compound_metrics: compoundMetricsRoute };
    for (const [path, route] of Object.entries(routes)) mountEndpoint(app, "GET", `/api/v4/sidekiq/${path}`, route.endpoint);
    const q = queues();
    const names = new Map(Object.entries(q).map(([name, url]) => [url, name]));
    const calls: string[] = [];
    // The SQS client caches its middleware stack, so the count is taken at `send`.
    const spies = [dynamo(), sqsClient(), sfnClient()].map((client) => {
      const send = client.send.bind(client) as (command: any) => Promise<unknown>;
      return vi.spyOn(client, "send").mockImplementation(((command: { constructor: { name: string }; input: Record<string, any> }) => {
        const input = command.input;
        const kind = command.constructor.name;
        if (kind === "GetQueueAttributesCommand") calls.push(`attributes ${names.get(input.QueueUrl)}`);
        else if (kind === "ListExecutionsCommand") calls.push("ListExecutions");
        else if (kind === "QueryCommand" && input.ExpressionAttributeValues?.[":pk"]?.S === PENDING_GROUP_DELETIONS) calls.push("Query pending deletions");
        else if (kind === "GetItemCommand" && input.Key?.pk?.S === JOB_STATS_KEY.pk) calls.push("GetItem counter");
        return send(command);
      }) as never);
    });
    const readsOf = async (path: string) => {
      calls.length = 0;
      const res = await app.fetch(new Request(`http://127.0.0.1/api/v4/sidekiq/${path}`, { headers: { "private-token": token } }));
      expect(res.status).toBe(200);
      return [...calls].sort();
    };
    try {
      const main = ["attributes hookQueue", "attributes ingestQueue"];
      const dead = ["attributes hookDlq", "attributes ingestDlq"];
      expect(await readsOf("queue_metrics")).toEqual(main);
      expect(await readsOf("job_stats")).toEqual([...main, ...dead, "GetItem counter"].sort());
      expect(await readsOf("process_metrics")).toEqual([...main, "ListExecutions", "Query pending deletions"].sort());
      expect(await readsOf("compound_metrics")).toEqual([...main, ...dead, "GetItem counter", "ListExecutions", "Query pending deletions"].sort());
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("is for administrators: anonymous 401, anyone else 403", async () => {
    const user = await requestAt(runtime.baseUrl, "POST", "/api/v4/users", { token, body: { username: "plain", name: "Plain", email: "plain@example.com" } });
    const pat = await requestAt(runtime.baseUrl, "POST", `/api/v4/users/${user.body.id}/personal_access_tokens`, { token, body: { name: "t", scopes: ["api"] } });
    for (const path of ["queue_metrics", "process_metrics", "job_stats", "compound_metrics"]) {
      expect(await requestAt(runtime.baseUrl, "GET", `/api/v4/sidekiq/${path}`)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      expect(await get(path, pat.body.token)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    }
  });

  it("counts queued messages as backlog and enqueued, received ones as busy, dead-lettered ones as dead", async () => {
    const q = queues();
    for (let i = 0; i < 3; i++) await sqs.send(new SendMessageCommand({ QueueUrl: q.ingestQueue, MessageBody: `{"test":${i}}` }));
    await sqs.send(new SendMessageCommand({ QueueUrl: q.hookQueue, MessageBody: "{}" }));
    await sqs.send(new SendMessageCommand({ QueueUrl: q.hookDlq, MessageBody: "{}" }));
    expect((await get("queue_metrics")).body.queues).toMatchObject({ error_tracking_ingest: { backlog: 3 }, web_hook: { backlog: 1 } });
    expect((await get("job_stats")).body.jobs).toMatchObject({ enqueued: 4, dead: 1 });
    // A consumer receives one: it is in flight until deleted, busy meanwhile.
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: q.ingestQueue, MaxNumberOfMessages: 1, VisibilityTimeout: 60 }));
    expect(received.Messages).toHaveLength(1);
    expect(await busyOf("ingest-consumer")).toBe(1);
    expect((await get("queue_metrics")).body.queues.error_tracking_ingest.backlog).toBe(2);
  });

  it("shows a group deletion in progress as busy until it is done", async () => {
    const marker = pendingGroupDeletionKey(987654);
    await putItem({ ...marker, groupId: 987654, markedAt: new Date().toISOString() });
    expect(await busyOf("group-deletions")).toBe(1);
    await deleteItem(marker.pk, marker.sk);
    expect(await busyOf("group-deletions")).toBe(0);
  });

  it("shows a running storage move as busy, and counts it processed once it finished", async () => {
    const project = await requestAt(runtime.baseUrl, "POST", "/api/v4/projects", { token, body: { name: "moved", initialize_with_readme: true } });
    const storage = (await requestAt(runtime.baseUrl, "GET", `/api/v4/projects/${project.body.id}`, { token })).body.repository_storage as string;
    const before = (await get("job_stats")).body.jobs.processed as number;
    // A write in flight holds the move at its drain, so its execution runs while the test looks.
    await updateItem({ pk: `PROJECT#${project.body.id}`, sk: "PROJECT", update: "SET writeLease = :l", values: { ":l": { id: "in-flight", expiresAt: Date.now() + 3_000 } } });
    const move = await requestAt(runtime.baseUrl, "POST", `/api/v4/projects/${project.body.id}/repository_storage_moves`, {
      token,
      body: { destination_storage_name: storage === "cluster" ? "secondary" : "cluster" },
    });
    expect(move.status).toBe(201);
    expect(await busyOf("storage-moves")).toBe(1);
    // What python-gitlab's wait_for_sidekiq does: wait until no process is busy.
    await expect.poll(() => busyOf("storage-moves"), { timeout: 60_000, interval: 200 }).toBe(0);
    expect((await requestAt(runtime.baseUrl, "GET", `/api/v4/project_repository_storage_moves/${move.body.id}`, { token })).body.state).toBe("finished");
    expect((await get("job_stats")).body.jobs.processed).toBe(before + 1);
  });
});
