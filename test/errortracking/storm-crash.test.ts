/**
 * A storm's batch cut short by a crash: the whole runtime (stand-ins included) is SIGKILLed while
 * the consumer is in the middle of a batch — one transaction of the error's group committed, the
 * others not — and started again on the same data folder. The batch comes back from the queue; its
 * committed events are duplicates, the rest are counted: every event the collector answered 200 to
 * is counted once, users exactly.
 */
import { describe, it, expect } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { runningInstance } from "../../local/instance-lock.js";
import { mapConcurrently } from "../../functions/platform/concurrency.js";
import { startCrashableRuntime, type CrashableRuntime } from "../support/crashable-runtime.js";
import { call } from "./thirdparty-support.js";

const token = "glpat-storm-crash-test-token-001";
const EVENTS = 600;
const USERS = 30;

describe("a storm's batch cut short by kill -9", () => {
  it("counts every accepted event once after the restart, users exactly", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-storm-crash-"));
    const start = () => startCrashableRuntime(dataDir, { token, config: { offering: "hosted" } });
    let current: CrashableRuntime | undefined;
    const api = (method: string, path: string, body?: unknown) => call(current!.client.baseUrl, method, path, token, body);
    const ingestQueueEmpty = async () => {
      const { env } = runningInstance(dataDir)!;
      const sqs = new SQSClient({ endpoint: env.AWS_ENDPOINT_URL_SQS, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
      const queueUrl = (JSON.parse(env.SST_RESOURCE_IngestQueue!) as { url: string }).url;
      const a = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"] }))).Attributes ?? {};
      sqs.destroy();
      return [a.ApproximateNumberOfMessages, a.ApproximateNumberOfMessagesNotVisible].every((n) => (n ?? "0") === "0");
    };
    try {
      current = await start();
      const project = (await api("POST", "/api/v4/projects", { name: "storm" })).body as { id: number; path_with_namespace: string };
      expect((await api("PUT", `/api/v4/projects/${project.id}/error_tracking/settings`, { active: true, integrated: true })).status).toBe(200);
      const dsn = new URL((await api("GET", `/api/v4/projects/${project.id}/error_tracking/client_keys`)).body[0].sentry_dsn as string);
      await current.arm("ingestChunk", "after");
      const accepted = await mapConcurrently(Array.from({ length: EVENTS }, (_, i) => i), 8, async (i) => {
        const res = await fetch(`${current!.client.baseUrl}/api/v4/error_tracking/collector/api/${dsn.pathname.split("/").pop()}/store/`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Sentry-Auth": `Sentry sentry_key=${dsn.username}, sentry_version=7` },
          body: JSON.stringify({ event_id: crypto.randomUUID().replace(/-/g, ""), platform: "node", level: "error", user: { id: `u${i % USERS}` }, exception: { values: [{ type: "StormError", value: "every request throws" }] } }),
        });
        return res.status;
      });
      expect(accepted.filter((s) => s !== 200)).toEqual([]);
      // The consumer froze right after a committed transaction of the storm's group: kill it there.
      await current.frozen();
      const ui = `/${project.path_with_namespace}/-/error_tracking.json`;
      const before = (await api("GET", ui)).body.errors[0];
      expect(before.count).toBeGreaterThan(0);
      expect(before.count).toBeLessThan(EVENTS);
      await current.kill();

      current = await start();
      await expect.poll(async () => (await api("GET", ui)).body.errors[0]?.count, { timeout: 180_000, interval: 500 }).toBe(EVENTS);
      // Once the queue holds nothing, visible or in flight, nothing more can arrive: no event counted twice.
      await expect.poll(ingestQueueEmpty, { timeout: 120_000, interval: 250 }).toBe(true);
      const [error] = (await api("GET", ui)).body.errors;
      expect(error).toMatchObject({ count: EVENTS, user_count: USERS });
    } finally {
      await current?.kill().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 600_000);
});
