/**
 * Shared by the processing / reading / retention tests: projects with integrated tracking switched on
 * through the settings domain with an explicit `hosted` config (the shared test server runs
 * `self-managed`, which the storage-move tests need), queue messages shaped as ingest sends them, and
 * real-shaped SQS events for calling the consumer handler directly.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { SQSEvent } from "aws-lambda";
import { instanceConfig } from "../../functions/platform/config.js";
import { saveSetting } from "../../functions/errortracking/domain/settings.js";
import type { IngestMessage } from "../../functions/errortracking/domain/contracts.js";
import { handler } from "../../functions/errortracking/workers/consumer.js";
import { api, newUser, unique } from "../support/api.js";

export const hosted = () => ({ ...instanceConfig(), offering: "hosted" as const });

export type User = Awaited<ReturnType<typeof newUser>>;

/** A project owned by `owner` (a new user by default), with integrated tracking on and a key. */
export async function trackedProject(opts: { owner?: User; namespaceId?: number; enable?: boolean } = {}) {
  const owner = opts.owner ?? (await newUser());
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("et"), ...(opts.namespaceId ? { namespace_id: opts.namespaceId } : {}) } });
  if (res.status !== 201) throw new Error(`project creation failed: ${res.status} ${res.text}`);
  const project = res.body as { id: number; path_with_namespace: string; name: string; path: string };
  if (opts.enable !== false) await saveSetting(project.id, { active: true, integrated: true }, { create: true, config: hosted() });
  return { owner, project, ui: `/${project.path_with_namespace}/-/error_tracking` };
}

export const eventId = () => randomBytes(16).toString("hex");

export function message(projectId: number, payload: Record<string, unknown>, o: Partial<IngestMessage> = {}): IngestMessage {
  return { eventId: eventId(), projectId, keyId: 1, receivedAt: new Date().toISOString(), kind: "event", payload, ...o };
}

/** An exception event as the Node SDK sends it (exception normalised to `{values}` by ingest). */
export function exceptionEvent(o: { type?: string; value?: string; user?: Record<string, string>; timestamp?: number | string; release?: string; fingerprint?: string[]; fn?: string } = {}) {
  return {
    exception: {
      values: [
        {
          type: o.type ?? "TypeError",
          value: o.value ?? "boom",
          stacktrace: {
            frames: [
              { filename: "node:internal/x", module: "x", function: "outer", lineno: 3, in_app: false },
              { filename: "/srv/app/a.mjs", abs_path: "/srv/app/a.mjs", module: "a", function: o.fn ?? "handler", lineno: 10, pre_context: ["const a = 1;", "const b = 2;"], context_line: "throw new TypeError('<b>');", post_context: ["done();"] },
            ],
          },
        },
      ],
    },
    platform: "node",
    level: "error",
    environment: "dev",
    ...(o.release ? { release: o.release } : {}),
    ...(o.user ? { user: o.user } : {}),
    ...(o.fingerprint ? { fingerprint: o.fingerprint } : {}),
    timestamp: o.timestamp ?? Date.now() / 1000,
  };
}

export function sqsEvent(bodies: Array<IngestMessage | string>): SQSEvent {
  return {
    Records: bodies.map((b) => ({
      messageId: randomUUID(),
      receiptHandle: randomUUID(),
      body: typeof b === "string" ? b : JSON.stringify(b),
      attributes: {} as never,
      messageAttributes: {},
      md5OfBody: "",
      eventSource: "aws:sqs",
      eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:forgeline-ingest",
      awsRegion: "us-east-1",
    })),
  };
}

/** Delivers messages to the consumer in small batches of 10 (`storms.test.ts` hands over batches as large as the event source gathers). */
export async function deliver(messages: Array<IngestMessage | string>): Promise<string[]> {
  const failed: string[] = [];
  for (let i = 0; i < messages.length; i += 10) {
    const event = sqsEvent(messages.slice(i, i + 10));
    const out = await handler(event);
    failed.push(...out.batchItemFailures.map((f) => f.itemIdentifier));
  }
  return failed;
}

/** The list as the UI reads it. */
export async function listErrors(token: string, ui: string, query = "") {
  const res = await api("GET", `${ui}.json${query}`, { token });
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${res.text}`);
  return res.body as { errors: Array<Record<string, any>>; pagination: { next?: { cursor: string }; previous?: { cursor: string } }; external_url: string | null };
}

/** The error list once it holds `count` errors (the consumer runs behind the queue), or as it is after ~30 s. */
export async function waitForErrors(token: string, ui: string, count: number) {
  let errors: Array<Record<string, any>> = [];
  for (let i = 0; i < 150 && errors.length < count; i++) {
    errors = (await listErrors(token, ui)).errors;
    if (errors.length < count) await new Promise((r) => setTimeout(r, 200));
  }
  return errors;
}

/**
 * The error list once its errors count `events` events in all — the consumers take events in
 * whichever batches they gather, so an error can be listed before all its events are counted — or
 * as it is after ~60 s.
 */
export async function waitForEvents(token: string, ui: string, events: number) {
  let errors: Array<Record<string, any>> = [];
  for (let i = 0; i < 300; i++) {
    errors = (await listErrors(token, ui)).errors;
    if (errors.reduce((n, e) => n + Number(e.count), 0) >= events) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return errors;
}

/**
 * Checks a `frequency` graph against the times (ms) of the events sent: 24 consecutive hours, oldest
 * first, each counting the events of its hour. Robust to the hour turning between sending and reading.
 */
export function expectHourlyCounts(frequency: Array<[number, number]>, eventTimesMs: number[]): void {
  const perHour = new Map<number, number>();
  for (const t of eventTimesMs) perHour.set(Math.floor(t / 3_600_000) * 3600, (perHour.get(Math.floor(t / 3_600_000) * 3600) ?? 0) + 1);
  if (frequency.length !== 24) throw new Error(`expected 24 hourly buckets, got ${frequency.length}`);
  frequency.forEach(([hour], i) => {
    if (i > 0 && hour !== frequency[i - 1]![0] + 3600) throw new Error(`bucket ${i} is not the hour after the one before it: ${JSON.stringify(frequency)}`);
  });
  const expected = frequency.map(([hour]) => [hour, perHour.get(hour) ?? 0]);
  if (JSON.stringify(expected) !== JSON.stringify(frequency)) throw new Error(`frequency ${JSON.stringify(frequency)} != ${JSON.stringify(expected)}`);
}
