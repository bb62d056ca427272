/**
 * A private runtime for the hook tests (the administrator allows local requests there, an
 * instance-wide setting), a project with integrated tracking and its DSN, a webhook receiver on
 * loopback, and the helpers the hook tests share: adding a hook, sending ingest messages three times
 * each, waiting for deliveries, checking payloads against the schema kept here, running a real SDK.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect } from "vitest";
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { sqsClient } from "../../../functions/platform/aws-sqs.js";
import { ownRuntime } from "../../support/own-runtime.js";
import { allowLocalRequests, call, waitFor } from "../thirdparty-support.js";
import type { message } from "../support.js";
import { startReceiver } from "./receiver.js";

const run = promisify(execFile);
const ajv = new Ajv({ allErrors: true, strict: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const validatePayload = ajv.compile(JSON.parse(readFileSync(resolve(import.meta.dirname, "payload.schema.json"), "utf8")));

export function expectValidPayload(body: unknown) {
  const ok = validatePayload(body);
  expect(validatePayload.errors ?? [], JSON.stringify(body)).toEqual([]);
  expect(ok).toBe(true);
}

export async function startHookHarness() {
  // Seconds between attempts in this runtime (1, 2, 4 …), and every event sees hook changes at once.
  process.env.FORGELINE_HOOK_RETRY_BASE_SECONDS = "1";
  process.env.FORGELINE_HOOK_CACHE_TTL_MS = "0";
  const own = await ownRuntime({ offering: "hosted" });
  const base = own.runtime.baseUrl;
  const admin = own.runtime.bootstrap.token!;
  const receiver = await startReceiver();
  const user = await call(base, "POST", "/api/v4/users", admin, { username: "hook_owner", name: "Hook Owner", email: "h@example.com" });
  const token: string = (await call(base, "POST", `/api/v4/users/${user.body.id}/personal_access_tokens`, admin, { name: "t", scopes: ["api"] })).body.token;
  const project: { id: number; path_with_namespace: string } = (await call(base, "POST", "/api/v4/projects", token, { name: "alerts" })).body;
  await call(base, "PUT", `/api/v4/projects/${project.id}/error_tracking/settings`, token, { active: true, integrated: true });
  const dsn: string = (await call(base, "GET", `/api/v4/projects/${project.id}/error_tracking/client_keys`, token)).body[0].sentry_dsn;
  const hooksPath = `/api/v4/projects/${project.id}/hooks`;

  const h = {
    own,
    base,
    admin,
    token,
    project,
    dsn,
    receiver,
    hooksPath,
    ui: `/${project.path_with_namespace}/-/error_tracking`,
    allowLocalRequests: () => allowLocalRequests(base, admin),
    call: (method: string, path: string, body?: unknown) => call(base, method, path, token, body),

    /** A hook posting to `path` on the receiver, with the token `secret-<path>` and the flag on. */
    async addHook(path: string, extra: Record<string, unknown> = {}) {
      const res = await call(base, "POST", hooksPath, token, { url: receiver.url(path), token: `secret-${path}`, error_tracking_events: true, ...extra });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: number };
    },

    /** Each message three times, in one batch: SQS's at-least-once delivery at its worst. */
    async sendThrice(messages: ReturnType<typeof message>[]) {
      const url = JSON.parse(process.env.SST_RESOURCE_IngestQueue!).url as string;
      const entries = messages.flatMap((m) => [m, m, m]).map((m, i) => ({ Id: String(i), MessageBody: JSON.stringify(m) }));
      for (let i = 0; i < entries.length; i += 9) await sqsClient().send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries.slice(i, i + 9) }));
    },

    /** Waits for `count` requests at `path`, then for the queues to drain, so late duplicates would show. */
    async deliveriesAt(path: string, count: number) {
      await waitFor(async () => receiver.at(path).length, (n) => n >= count, 150);
      await own.runtime.settle();
      return receiver.at(path);
    },

    /** Runs a real SDK app of this folder with the project's DSN; it prints `{"flushed":true}`. */
    async sdkRun(command: string, script: string, env: Record<string, string>) {
      const out = await run(command, [resolve(import.meta.dirname, script)], { env: { ...process.env, SENTRY_DSN: dsn, ...env }, timeout: 60_000 });
      expect(JSON.parse(out.stdout.trim().split("\n").pop()!)).toEqual({ flushed: true });
    },

    /**
     * A new error (three events, threshold 2 on the hook), then after resolving it one more event: the
     * hook at `path` gets `new_error` and `threshold`, then `regression`, each once.
     */
    async sdkDrivesTriggers(command: string, script: string, type: string) {
      const path = `/sdk-${type}`;
      await h.addHook(path, { error_tracking_events_threshold: 2, error_tracking_events_window: 3600 });
      await h.sdkRun(command, script, { COUNT: "3", ERROR_TEXT: `sdk ${type}` });
      const first = await h.deliveriesAt(path, 2);
      expect(first.map((r) => r.body.event_type).sort()).toEqual(["new_error", "threshold"]);
      first.forEach((r) => expectValidPayload(r.body));
      const errorId = first[0]!.body.error.id as number;
      expect(first[0]!.body.error.title).toMatch(new RegExp(`^${type}: sdk ${type} #\\d$`));
      expect((await h.call("PUT", `${h.ui}/${errorId}.json`, { status: "resolved" })).status).toBe(200);
      await h.sdkRun(command, script, { COUNT: "1", ERROR_TEXT: `sdk ${type}` });
      const all = await h.deliveriesAt(path, 3);
      expect(all.map((r) => r.body.event_type).slice(2)).toEqual(["regression"]);
      expectValidPayload(all[2]!.body);
    },

    async stop() {
      await receiver.close();
      await own.stop();
    },
  };
  return h;
}

export type HookHarness = Awaited<ReturnType<typeof startHookHarness>>;
