/**
 * Alerts by webhook, end to end on a private runtime (`hooks/harness.ts`): project hooks with
 * `error_tracking_events`, a receiver on loopback, ingest messages on the real queue (three copies of
 * each, as SQS may redeliver), the consumer's triggers, the hook queue and its worker, retries with
 * backoff, the deliveries view and the test trigger; then the real `@sentry/node` driving the
 * triggers through the collector (Python's `sentry_sdk`: test/clients/sentry-python-hooks.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { waitFor } from "./thirdparty-support.js";
import { exceptionEvent, message, sqsEvent } from "./support.js";
import { sqsClient } from "../../functions/platform/aws-sqs.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { claimDelivery } from "../../functions/errortracking/hooks/delivery.js";
import { handler as deliveryHandler } from "../../functions/errortracking/workers/hook-delivery.js";
import { handler as consumer } from "../../functions/errortracking/workers/consumer.js";
import { expectValidPayload, startHookHarness, type HookHarness } from "./hooks/harness.js";
import { directConnector, useConnector } from "../../functions/platform/outbound/client.js";

let h: HookHarness;
let base: string;
let project: HookHarness["project"];
let ui: string;
let hooksPath: string;

beforeAll(async () => {
  h = await startHookHarness();
  ({ base, project, ui, hooksPath } = h);
  // Refused until the administrator allows local requests (GitLab's default).
  const refused = await h.call("POST", hooksPath, { url: h.receiver.url("/refused"), error_tracking_events: true });
  expect(refused).toMatchObject({ status: 400, body: { message: { url: ["is blocked: Requests to localhost are not allowed"] } } });
  await h.allowLocalRequests();
}, 180_000);

afterAll(async () => {
  await h?.stop();
});

describe("project hooks API", () => {
  it("creates, lists, edits and deletes hooks as GitLab does, and never returns the token", async () => {
    const created = await h.call("POST", hooksPath, { url: h.receiver.url("/crud"), token: "do-not-show", push_events: false, error_tracking_events: "true", error_tracking_events_threshold: 10, error_tracking_events_window: 300 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: h.receiver.url("/crud"), project_id: project.id, push_events: false, error_tracking_events: true, enable_ssl_verification: true, error_tracking_events_threshold: 10, error_tracking_events_window: 300 });
    expect(created.text).not.toContain("do-not-show");
    expect(created.body).not.toHaveProperty("token");
    const id = created.body.id as number;
    const edited = await h.call("PUT", `${hooksPath}/${id}`, { issues_events: true, error_tracking_events_threshold: 0 });
    expect(edited.body).toMatchObject({ id, issues_events: true, push_events: false, error_tracking_events_threshold: null });
    expect((await h.call("GET", `${hooksPath}/${id}`)).body).toEqual(edited.body);
    expect((await h.call("GET", hooksPath)).body.map((h: { id: number }) => h.id)).toContain(id);
    expect((await h.call("PUT", `${hooksPath}/${id}`, { error_tracking_events_window: 7 })).status).toBe(400);
    expect((await h.call("POST", hooksPath, { token: "x" })).body).toEqual({ error: "url is missing" });
    expect((await h.call("POST", hooksPath, { url: "ftp://example.com/x" })).body).toEqual({ message: { url: ["is blocked: Only allowed schemes are http, https"] } });
    // The token travels in a header: GitLab refuses a newline in it, and no header carries other control characters.
    for (const token of ["two\nlines", "bell\u0007"]) {
      expect(await h.call("POST", hooksPath, { url: h.receiver.url("/crud"), token })).toMatchObject({ status: 400, body: { message: { token: ["is invalid"] } } });
    }
    expect(await h.call("PUT", `${hooksPath}/${id}`, { token: "a\r\nX-Injected: 1" })).toMatchObject({ status: 400, body: { message: { token: ["is invalid"] } } });
    expect((await h.call("DELETE", `${hooksPath}/${id}`)).status).toBe(204);
    expect((await h.call("GET", `${hooksPath}/${id}`)).status).toBe(404);
  });
});

describe("error tracking hooks fire once per trigger", () => {
  it("a new error: one delivery per hook under 3× redelivery, with GitLab's headers and a payload the schema accepts; nothing for a hook whose flag is off", async () => {
    const on = await h.addHook("/new");
    await h.addHook("/off", { error_tracking_events: false });
    const msg = message(project.id, exceptionEvent({ type: "NewError", value: "first of its kind", fn: "newOne" }));
    await h.sendThrice([msg]);
    const got = await h.deliveriesAt("/new", 1);
    expect(got).toHaveLength(1);
    expect(h.receiver.at("/off")).toHaveLength(0);
    const [d] = got;
    expect(d!.headers).toMatchObject({ "x-gitlab-event": "Error Tracking Hook", "x-gitlab-token": "secret-/new", "content-type": "application/json" });
    expect(d!.headers["x-gitlab-event-uuid"]).toMatch(/^[0-9a-f-]{36}$/);
    expectValidPayload(d!.body);
    expect(d!.body).toMatchObject({
      object_kind: "error_tracking",
      event_type: "new_error",
      project: { id: project.id, path_with_namespace: project.path_with_namespace, web_url: `${base}/${project.path_with_namespace}` },
      error: { title: "NewError: first of its kind", count: 1, status: "unresolved" },
      event: { event_id: msg.eventId, environment: "dev" },
    });
    expect(d!.body.error.url).toBe(`${base}${ui}/${d!.body.error.id}/details`);
    // The recent deliveries: status, response code, time — and the token masked.
    const events = await h.call("GET", `${hooksPath}/${on.id}/events`);
    expect(events.body).toEqual([
      expect.objectContaining({ trigger: "error_tracking_events", response_status: "200", status: "delivered", attempts: 1, delivery_id: d!.headers["x-gitlab-event-uuid"], created_at: expect.any(String) }),
    ]);
    expect(events.body[0].request_headers["X-Gitlab-Token"]).toBe("[REDACTED]");
    await h.call("PUT", `${hooksPath}/${on.id}`, { error_tracking_events: false });
  });

  it("a regression: the first events after resolving fire once, later ones not", async () => {
    await h.addHook("/regression");
    const first = message(project.id, exceptionEvent({ type: "Regressing", value: "comes back", fn: "back" }));
    await h.sendThrice([first]);
    const [created] = await h.deliveriesAt("/regression", 1);
    const errorId = created!.body.error.id as number;
    expect((await h.call("PUT", `${ui}/${errorId}.json`, { status: "resolved" })).status).toBe(200);
    const again = [1, 2, 3].map(() => message(project.id, exceptionEvent({ type: "Regressing", value: "comes back", fn: "back" })));
    await h.sendThrice(again);
    const got = await h.deliveriesAt("/regression", 2);
    expect(got.map((r) => r.body.event_type)).toEqual(["new_error", "regression"]);
    expectValidPayload(got[1]!.body);
    expect(got[1]!.body).toMatchObject({ error: { id: errorId, status: "resolved" }, trigger: { kind: "regression", resolved_at: expect.any(String) } });
    expect(again.map((m) => m.eventId)).toContain(got[1]!.body.event.event_id);
  });

  // A day's and an hour's window are counted by the graphs' own counters; 5 minutes by one of its own.
  it.each([
    [86400, 3],
    [3600, 4],
    [300, 2],
  ])("a threshold: the event that takes an error past N events in the window fires, once (window %i s)", async (window, threshold) => {
    const path = `/threshold-${window}`;
    await h.addHook(path, { error_tracking_events_threshold: threshold, error_tracking_events_window: window });
    const burst = [1, 2, 3, 4, 5].map(() => message(project.id, exceptionEvent({ type: `Bursty${window}`, value: "many", fn: "burst" })));
    await h.sendThrice(burst);
    const got = await h.deliveriesAt(path, 2);
    expect(got.map((r) => r.body.event_type).sort()).toEqual(["new_error", "threshold"]);
    const crossing = got.find((r) => r.body.event_type === "threshold")!;
    expectValidPayload(crossing.body);
    expect(crossing.body.trigger).toMatchObject({ kind: "threshold", threshold, window_seconds: window });
    expect(crossing.body.error.count).toBeGreaterThanOrEqual(threshold + 1);
  });

  it("a batch that jumps over two thresholds fires each once, on the event that passes it in time order, under 3× redelivery", async () => {
    await h.addHook("/jump-10", { error_tracking_events_threshold: 10, error_tracking_events_window: 3600 });
    await h.addHook("/jump-25", { error_tracking_events_threshold: 25, error_tracking_events_window: 3600 });
    // 40 events a second apart, all in one UTC hour and in the past (before a minute into the hour: the hour before).
    const hourStart = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const base = Date.now() - hourStart >= 60_000 ? hourStart : hourStart - 3_600_000;
    const burst = Array.from({ length: 40 }, (_, i) => message(project.id, exceptionEvent({ type: "Jumpy", value: "storm", fn: "jump", timestamp: (base + i * 1000) / 1000 })));
    // One batch, as the event source hands a storm over (the runtime's own pollers split it at random).
    const thrice = [...burst, ...burst, ...burst].map((m, i) => [(i * 7919) % 120, m] as const).sort((a, b) => a[0] - b[0]).map(([, m]) => m);
    expect((await consumer(sqsEvent(thrice))).batchItemFailures).toEqual([]);
    // And half of it again later, as SQS may: the duplicates enqueue the triggers their first delivery recorded, under the same delivery ids.
    expect((await consumer(sqsEvent(thrice.slice(0, 60)))).batchItemFailures).toEqual([]);
    for (const [path, threshold] of [["/jump-10", 10], ["/jump-25", 25]] as const) {
      const got = await h.deliveriesAt(path, 2);
      expect(got.map((r) => r.body.event_type).sort()).toEqual(["new_error", "threshold"]);
      const crossing = got.find((r) => r.body.event_type === "threshold")!;
      expectValidPayload(crossing.body);
      // The event that takes the hour's count from N to N + 1, in time order.
      expect(crossing.body.trigger).toMatchObject({ kind: "threshold", threshold, window_seconds: 3600 });
      expect(crossing.body.event.event_id).toBe(burst[threshold]!.eventId);
      expect(got.find((r) => r.body.event_type === "new_error")!.body.event.event_id).toBe(burst[0]!.eventId);
    }
  });

  it("two consumers at once, each short of a threshold, cross it together once", async () => {
    await h.addHook("/together", { error_tracking_events_threshold: 10, error_tracking_events_window: 3600 });
    const hourStart = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const base = Date.now() - hourStart >= 60_000 ? hourStart : hourStart - 3_600_000;
    const events = Array.from({ length: 16 }, (_, i) => message(project.id, exceptionEvent({ type: "Together", value: "two consumers", fn: "together", timestamp: (base + i * 1000) / 1000 })));
    // Neither batch alone reaches 10; whichever commits second finds the count moved and crosses it.
    const outcomes = await Promise.all([consumer(sqsEvent(events.slice(0, 8))), consumer(sqsEvent(events.slice(8)))]);
    expect(outcomes.flatMap((o) => o.batchItemFailures)).toEqual([]);
    const got = await h.deliveriesAt("/together", 2);
    expect(got.map((r) => r.body.event_type).sort()).toEqual(["new_error", "threshold"]);
    expect(got.find((r) => r.body.event_type === "threshold")!.body.trigger).toMatchObject({ threshold: 10, window_seconds: 3600 });
  });

  it("retries after the receiver answers 500, with the same delivery id, until it takes it", async () => {
    const hook = await h.addHook("/flaky");
    h.receiver.failNext("/flaky", 2);
    await h.sendThrice([message(project.id, exceptionEvent({ type: "Flaky", value: "receiver down", fn: "flaky" }))]);
    const got = await waitFor(async () => h.receiver.at("/flaky"), (r) => r.some((x) => x.answered === 200), 150);
    await h.own.runtime.settle();
    expect(h.receiver.at("/flaky").map((r) => r.answered)).toEqual([500, 500, 200]);
    expect(new Set(got.map((r) => r.headers["x-gitlab-event-uuid"])).size).toBe(1);
    const [log] = (await h.call("GET", `${hooksPath}/${hook.id}/events`)).body;
    expect(log).toMatchObject({ status: "delivered", response_status: "200", attempts: 3 });
  });

  it("a delivery's lock names its holder; the next incarnation of the runtime takes over its predecessor's lock, a live one is waited for", async () => {
    const incarnation = Number(process.env.FORGELINE_RUNTIME_INCARNATION);
    const hook = await h.addHook("/lock", { error_tracking_events: false });
    const d = { deliveryId: crypto.randomUUID(), hookId: hook.id, projectId: project.id, trigger: "error_tracking_events", url: h.receiver.url("/lock") };
    const first = await claimDelivery(d);
    expect(first).toEqual({ claimed: expect.objectContaining({ status: "sending", attempts: 1, lease: expect.objectContaining({ holder: `runtime-${incarnation}-${process.pid}`, incarnation }) }) });
    const lease = "claimed" in first ? first.claimed.lease : undefined;
    expect(await claimDelivery(d)).toEqual({ heldUntil: lease!.expiresAt });
    process.env.FORGELINE_RUNTIME_INCARNATION = String(incarnation + 1);
    try {
      // As the runtime started again on the same data: the dead attempt's lock, far from expired, is released.
      expect(await claimDelivery(d)).toEqual({ claimed: expect.objectContaining({ attempts: 2, lease: expect.objectContaining({ holder: `runtime-${incarnation + 1}-${process.pid}` }) }) });
    } finally {
      process.env.FORGELINE_RUNTIME_INCARNATION = String(incarnation);
    }
  });

  it("a copy whose delivery a live sender holds goes back to the queue until that lock expires, then sends; it is never dropped unsent", async () => {
    const hook = await h.addHook("/held");
    await h.sendThrice([message(project.id, exceptionEvent({ type: "Held", value: "by another sender", fn: "held" }))]);
    const [sent] = await h.deliveriesAt("/held", 1);
    const deliveryId = sent!.headers["x-gitlab-event-uuid"] as string;
    const copy = { deliveryId, projectId: project.id, hookId: hook.id, eventId: sent!.body.event.event_id, trigger: { kind: "new_error", errorId: sent!.body.error.id } };
    // Say the delivery failed and another sender (a Lambda: no incarnation) is trying it again right now.
    const key = { pk: `ETHOOKDELIVERY#${deliveryId}`, sk: "DELIVERY" };
    await updateItem({ ...key, update: "SET #st = :failed, lease = :lease", names: { "#st": "status" }, values: { ":failed": "failed", ":lease": { id: "other", holder: "lambda-hooks-1", expiresAt: Date.now() + 2_000 } } });

    // A queue of this test's own (the runtime's poller does not read it), as the worker's queue.
    const sqs = sqsClient();
    const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `hooks-held-${deliveryId.slice(0, 8)}` }))).QueueUrl!;
    const runtimeQueue = process.env.SST_RESOURCE_HookQueue;
    process.env.SST_RESOURCE_HookQueue = JSON.stringify({ url: queueUrl });
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(copy) }));
      const receive = async () => {
        const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 1, MessageSystemAttributeNames: ["All"] }));
        return (out.Messages ?? []).map((m) => ({ ...sqsEvent([m.Body!]).Records[0]!, messageId: m.MessageId!, receiptHandle: m.ReceiptHandle!, attributes: m.Attributes as never }));
      };
      const [first] = await receive();
      expect(await deliveryHandler({ Records: [first!] })).toEqual({ batchItemFailures: [{ itemIdentifier: first!.messageId }] });
      expect(h.receiver.at("/held")).toHaveLength(1);
      // Back on the queue, not deleted: it comes again once the lock has expired, and sends.
      const [again] = await waitFor(receive, (m) => m.length > 0, 30);
      expect(again!.messageId).toBe(first!.messageId);
      expect(await deliveryHandler({ Records: [again!] })).toEqual({ batchItemFailures: [] });
    } finally {
      process.env.SST_RESOURCE_HookQueue = runtimeQueue;
    }
    expect(h.receiver.at("/held").map((r) => r.headers["x-gitlab-event-uuid"])).toEqual([deliveryId, deliveryId]);
    const [log] = (await h.call("GET", `${hooksPath}/${hook.id}/events`)).body;
    expect(log).toMatchObject({ delivery_id: deliveryId, status: "delivered", attempts: 2 });
  });

  it("the test trigger sends now and says what the receiver answered", async () => {
    const hook = await h.addHook("/test-trigger", { token: "clé-🔑" });
    const ok = await h.call("POST", `${hooksPath}/${hook.id}/test/error_tracking_events`);
    expect(ok).toMatchObject({ status: 201, body: { message: "201 Created" } });
    const [d] = h.receiver.at("/test-trigger");
    // A token beyond ASCII arrives as its UTF-8 bytes, as GitLab sends it (Node reads header bytes as latin1).
    expect(Buffer.from(String(d!.headers["x-gitlab-token"]), "latin1").toString("utf8")).toBe("clé-🔑");
    expectValidPayload(d!.body);
    expect(d!.body).toMatchObject({ object_kind: "error_tracking", event_type: "test" });
    h.receiver.failNext("/test-trigger", 1);
    expect(await h.call("POST", `${hooksPath}/${hook.id}/test/error_tracking_events`)).toMatchObject({ status: 422, body: { message: "Hook execution failed: 500" } });
    expect((await h.call("POST", `${hooksPath}/${hook.id}/test/push_events`)).status).toBe(400);
    const logs = (await h.call("GET", `${hooksPath}/${hook.id}/events`)).body;
    expect(logs.map((l: { response_status: string }) => l.response_status)).toEqual(["500", "200"]);
  });
});

describe("a hook whose host does not resolve", () => {
  it("is saved, as GitLab saves it (python-gitlab's functional test uses http://hook.url), and its deliveries are refused unsent", async () => {
    // DNS stands in here: `.invalid` never resolves (RFC 6761); nothing leaves the machine.
    const sent: string[] = [];
    const restore = useConnector({
      lookup: async (host) => {
        if (host.endsWith(".invalid")) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
        return directConnector.lookup(host);
      },
      send: async (target, init) => {
        sent.push(target.url.host);
        return directConnector.send(target, init);
      },
    });
    try {
      const created = await h.call("POST", hooksPath, { url: "http://hook.invalid/x", error_tracking_events: true });
      expect(created).toMatchObject({ status: 201, body: { url: "http://hook.invalid/x", error_tracking_events: true } });
      const edited = await h.call("PUT", `${hooksPath}/${created.body.id}`, { url: "http://other.invalid/y", note_events: true });
      expect(edited).toMatchObject({ status: 200, body: { url: "http://other.invalid/y", note_events: true } });
      const tried = await h.call("POST", `${hooksPath}/${created.body.id}/test/error_tracking_events`);
      expect(tried).toMatchObject({ status: 422, body: { message: "Hook execution failed: internal error" } });
      const [log] = (await h.call("GET", `${hooksPath}/${created.body.id}/events`)).body;
      expect(log).toMatchObject({ url: "http://other.invalid/y", response_body: "URL is blocked: Host cannot be resolved or invalid" });
      expect(sent).toEqual([]);
      // Anything else the filter refuses is still refused when the hook is saved.
      expect((await h.call("POST", hooksPath, { url: "http://user:pass@hook.invalid/x" })).body).toEqual({ message: { url: ["is blocked: URI is invalid"] } });
      expect((await h.call("DELETE", `${hooksPath}/${created.body.id}`)).status).toBe(204);
    } finally {
      restore();
    }
  });
});

describe("a real SDK drives the triggers", () => {
  it("@sentry/node: a new error, a threshold, then a regression", async () => {
    await h.sdkDrivesTriggers(process.execPath, "node-app.mjs", "RangeError");
  });
});
