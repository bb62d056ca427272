/**
 * A hook delivery in flight when the runtime dies is sent again. The whole runtime (stand-ins
 * included) is SIGKILLed while a receiver holds the hook's request unanswered — at the delivery's
 * first attempt, then at a later one (after a 500) — and started again on the same data folder. The
 * dead attempt's delivery lock must not pass for a live sender's: the same delivery id arrives again
 * within the retry schedule, and the hook log ends with that one delivery `delivered`.
 * One data folder; each restart is the runtime's next incarnation.
 */
import { describe, it, expect } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { runningInstance } from "../../local/instance-lock.js";
import { HOOK_DELIVERY_ATTEMPTS } from "../../stacks/plan.js";
import { startCrashableRuntime, type CrashableRuntime } from "../support/crashable-runtime.js";
import { allowLocalRequests, call } from "./thirdparty-support.js";
import { startReceiver } from "./hooks/receiver.js";

const token = "glpat-hook-crash-test-token-0001";
const RETRY_BASE_SECONDS = 1;
/** The retry schedule end to end: every backoff (base × 2ⁿ, never near its 15-minute cap here) of every attempt. */
const RETRY_SCHEDULE_MS = RETRY_BASE_SECONDS * (2 ** HOOK_DELIVERY_ATTEMPTS - 1) * 1000;

interface Delivery {
  delivery_id: string;
  status: string;
  attempts: number;
  response_status: string | null;
}

describe("a hook delivery in flight when the runtime is killed", () => {
  it("is sent again after the restart, under the same delivery id, at the first attempt and at a later one, and ends delivered once", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-hook-crash-"));
    const receiver = await startReceiver();
    const start = () =>
      startCrashableRuntime(dataDir, { token, config: { offering: "hosted" }, env: { FORGELINE_HOOK_RETRY_BASE_SECONDS: String(RETRY_BASE_SECONDS), FORGELINE_HOOK_CACHE_TTL_MS: "0" } });
    let current: CrashableRuntime | undefined;
    const api = (method: string, path: string, body?: unknown) => call(current!.client.baseUrl, method, path, token, body);
    const log = async (hooksPath: string, hookId: number) => (await api("GET", `${hooksPath}/${hookId}/events`)).body as Delivery[];

    /** Whether the runtime's hook queue holds no message at all, visible or in flight. */
    const hookQueueEmpty = async () => {
      const { env } = runningInstance(dataDir)!;
      const sqs = new SQSClient({ endpoint: env.AWS_ENDPOINT_URL_SQS, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
      const queueUrl = (JSON.parse(env.SST_RESOURCE_HookQueue!) as { url: string }).url;
      const a = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"] }))).Attributes ?? {};
      sqs.destroy();
      return [a.ApproximateNumberOfMessages, a.ApproximateNumberOfMessagesNotVisible, a.ApproximateNumberOfMessagesDelayed].every((n) => (n ?? "0") === "0");
    };

    /**
     * The hook's log once its delivery is delivered — or once nothing is left on the queue to deliver
     * it (a message dropped unsent), or the retry schedule has passed: then as it stands.
     */
    const settled = async (hooksPath: string, hookId: number) => {
      const deadline = Date.now() + RETRY_SCHEDULE_MS;
      for (;;) {
        const entries = await log(hooksPath, hookId);
        if (entries.some((d) => d.status === "delivered")) return entries;
        // Read once more after the queue emptied: the delivery may have ended in between.
        if ((await hookQueueEmpty()) || Date.now() > deadline) return log(hooksPath, hookId);
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    /** One new error through the collector's store endpoint, authenticated by the DSN's key. */
    const sendEvent = async (dsn: string, type: string) => {
      const url = new URL(dsn);
      const res = await fetch(`${current!.client.baseUrl}/api/v4/error_tracking/collector/api/${url.pathname.split("/").pop()}/store/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Sentry-Auth": `Sentry sentry_key=${url.username}, sentry_version=7` },
        body: JSON.stringify({ event_id: crypto.randomUUID().replace(/-/g, ""), platform: "node", level: "error", exception: { values: [{ type, value: "in flight at a crash" }] } }),
      });
      expect(res.status, await res.text()).toBe(200);
    };

    /** The hook's request is held at `path` (after `failures` 500s): kill the runtime while its sender waits, and start it again. */
    const crashWhileHeld = async (path: string, failures: number, send: () => Promise<void>, hooksPath: string, hookId: number) => {
      receiver.failNext(path, failures);
      receiver.holdNext(path);
      await send();
      await expect.poll(() => receiver.at(path).map((r) => r.answered), { timeout: 120_000, interval: 50 }).toEqual([...Array<number>(failures).fill(500), 0]);
      expect((await log(hooksPath, hookId))[0]).toMatchObject({ status: "sending", attempts: failures + 1 });
      await current!.kill();
      current = await start();
      const entries = await settled(hooksPath, hookId);
      const requests = receiver.at(path);
      // Soft: a delivery lost at one attempt fails the test, but the next case still runs.
      expect.soft(requests.map((r) => r.answered), `requests at ${path}`).toEqual([...Array<number>(failures).fill(500), 0, 200]);
      const ids = new Set(requests.map((r) => r.headers["x-gitlab-event-uuid"]));
      expect.soft(ids.size, `delivery ids at ${path}`).toBe(1);
      expect.soft(entries, `the hook log of ${path}`).toEqual([expect.objectContaining({ delivery_id: [...ids][0], status: "delivered", response_status: "200", attempts: failures + 2 })]);
    };

    try {
      current = await start();
      await allowLocalRequests(current.client.baseUrl, token);
      const project = (await api("POST", "/api/v4/projects", { name: "alerts" })).body as { id: number };
      expect((await api("PUT", `/api/v4/projects/${project.id}/error_tracking/settings`, { active: true, integrated: true })).status).toBe(200);
      const dsn = (await api("GET", `/api/v4/projects/${project.id}/error_tracking/client_keys`)).body[0].sentry_dsn as string;
      const hooksPath = `/api/v4/projects/${project.id}/hooks`;
      const addHook = async (path: string) => {
        const res = await api("POST", hooksPath, { url: receiver.url(path), error_tracking_events: true });
        expect(res.status, res.text).toBe(201);
        return res.body.id as number;
      };

      const first = await addHook("/first-attempt");
      await crashWhileHeld("/first-attempt", 0, () => sendEvent(dsn, "KilledAtFirstAttempt"), hooksPath, first);
      expect((await api("PUT", `${hooksPath}/${first}`, { error_tracking_events: false })).status).toBe(200);

      const later = await addHook("/later-attempt");
      await crashWhileHeld("/later-attempt", 1, () => sendEvent(dsn, "KilledAtLaterAttempt"), hooksPath, later);
    } finally {
      await current?.kill().catch(() => undefined);
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 900_000);
});
