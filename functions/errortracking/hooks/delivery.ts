/**
 * Sending one delivery: claim it (one sender at a time, never after it succeeded), build the payload
 * from the error and the triggering event as they are now, POST it through the guarded outbound
 * client, and log the attempt (the hook's recent deliveries, GitLab's `WebHookLog`).
 *
 * | item                 | pk                        | sk        | gsi1pk / gsi1sk                          |
 * |----------------------|---------------------------|-----------|------------------------------------------|
 * | delivery (+ its log) | ETHOOKDELIVERY#<uuid>     | DELIVERY  | ETHOOKLOG#<hookId> / <createdAt>#<uuid>  |
 *
 * The delivery id is the item key, so the several queue messages a redelivered event produces meet on
 * one item: the claim (a conditional update taking the item's lock, a lease that names its holder,
 * `platform/leases.ts`) lets one send at a time; once `delivered`, every other copy is dropped. A
 * lock dies with its sender: it expires after `DELIVERY_LEASE_MS`, and one taken by an earlier
 * incarnation of the local runtime counts as released at once, so a delivery in flight at a crash is
 * sent again by the restarted runtime. A crash after the receiver answered but before the item says
 * so sends again (at least once; the receiver deduplicates by `X-Gitlab-Event-UUID`).
 */
import { gunzipSync } from "node:zlib";
import { GSI1, getItem, isConditionFailure, nextId, queryPage, updateItem } from "../../platform/db/table.js";
import { instanceConfig } from "../../platform/config.js";
import { isLive, newLease, noLiveLease, type Lease } from "../../platform/leases.js";
import { log } from "../../platform/log.js";
import { outboundFetch } from "../../platform/outbound/client.js";
import { BlockedUrlError } from "../../platform/outbound/policy.js";
import { outboundPolicy } from "../../identity/domain/settings.js";
import { fullPathOf, type Project } from "../../hosting/domain/projects.js";
import { errorKey, eventKey } from "../domain/keys.js";
import type { ErrorItem } from "../domain/errors.js";
import { titleOf } from "../http/views.js";
import { hookToken, type HookRecord } from "./store.js";
import { entries, interpolatedUrl } from "./hook-extras.js";
import type { Trigger } from "./triggers.js";

export const HOOK_EVENT_HEADER = "Error Tracking Hook";
/** Deliveries are listed for 7 days (GitLab keeps web hook logs as long), then DynamoDB's TTL drops them. */
const LOG_DAYS = 7;
/**
 * A delivery's lock is held this long: longer than one attempt (the request timeout below) can take.
 * On AWS the hook queue's visibility timeout outlasts the consumer's timeout plus this, so the lock of
 * an invocation that timed out has expired when its message is received again (`stacks/queues.ts`).
 */
export const DELIVERY_LEASE_MS = 45_000;
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BODY = 8 * 1024;

export type DeliveryStatus = "sending" | "delivered" | "failed";

export interface DeliveryRecord {
  id: number;
  deliveryId: string;
  hookId: number;
  projectId: number;
  trigger: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  requestHeaders?: Record<string, string>;
  requestData?: string;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  /** HTTP status as text, or GitLab's `internal error` when no answer came. */
  responseStatus?: string;
  executionDuration?: number;
  createdAt: string;
  updatedAt: string;
  /** The lock of the attempt under way; removed when it ends. */
  lease?: Lease;
}

/**
 * What a claim found: the delivery is this sender's for one attempt, it was delivered already
 * (nothing more to do), or a live sender holds its lock until `heldUntil` (try again after that).
 */
export type Claim = { claimed: DeliveryRecord & { lease: Lease } } | { delivered: true } | { heldUntil: number };

const deliveryKey = (deliveryId: string) => ({ pk: `ETHOOKDELIVERY#${deliveryId}`, sk: "DELIVERY" });
const hookLogPk = (hookId: number) => `ETHOOKLOG#${hookId}`;

/** The hook's deliveries, newest first (one Query of its log index). */
export function listDeliveries(hookId: number, offset: number, limit: number) {
  return queryPage<DeliveryRecord>({ index: GSI1, pk: hookLogPk(hookId), offset, limit });
}

/** Takes the delivery for one attempt, unless it was delivered or a live sender holds its lock. */
export async function claimDelivery(d: { deliveryId: string; hookId: number; projectId: number; trigger: string; url: string }, now = Date.now()): Promise<Claim> {
  const at = new Date(now).toISOString();
  const key = deliveryKey(d.deliveryId);
  const existing = await getItem<DeliveryRecord>(key.pk, key.sk);
  const found = foundClaim(existing, now);
  if (found) return found;
  // Numbered once, when first claimed (GitLab's log ids are integers).
  const id = existing?.id ?? (await nextId("web_hook_logs"));
  const lease = newLease(now, DELIVERY_LEASE_MS);
  const free = noLiveLease("lease", lease, now);
  try {
    const claimed = (await updateItem({
      ...key,
      update:
        "SET lease = :lease, #st = :sending, updatedAt = :at, id = if_not_exists(id, :id), deliveryId = :did, hookId = :hid, projectId = :pid, #trigger = :trigger, #url = :url, createdAt = if_not_exists(createdAt, :at), gsi1pk = :log, gsi1sk = if_not_exists(gsi1sk, :logsk), expireAt = :exp ADD attempts :one",
      condition: `attribute_not_exists(pk) OR (#st <> :delivered AND ${free.condition})`,
      names: { "#st": "status", "#trigger": "trigger", "#url": "url" },
      values: {
        ...free.values,
        ":lease": lease,
        ":sending": "sending",
        ":delivered": "delivered",
        ":at": at,
        ":id": id,
        ":did": d.deliveryId,
        ":hid": d.hookId,
        ":pid": d.projectId,
        ":trigger": d.trigger,
        ":url": d.url,
        ":log": hookLogPk(d.hookId),
        ":logsk": `${at}#${d.deliveryId}`,
        ":exp": Math.floor(now / 1000) + LOG_DAYS * 86_400,
        ":one": 1,
      },
    })) as unknown as DeliveryRecord;
    return { claimed: { ...claimed, lease } };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // Another sender claimed it since it was read: say what it left.
    return foundClaim(await getItem<DeliveryRecord>(key.pk, key.sk), now) ?? { heldUntil: now };
  }
}

/** Why the delivery as read cannot be claimed now, if it cannot. */
function foundClaim(existing: DeliveryRecord | undefined, now: number): Exclude<Claim, { claimed: unknown }> | undefined {
  if (existing?.status === "delivered") return { delivered: true };
  if (existing?.lease && isLive(existing.lease, now)) return { heldUntil: existing.lease.expiresAt };
  return undefined;
}

export interface AttemptResult {
  ok: boolean;
  /** Worth trying again (no answer, 5xx, 429); a 4xx or a blocked URL is final. */
  retryable: boolean;
  status: string;
}

type AttemptLog = Omit<DeliveryRecord, "id" | "deliveryId" | "hookId" | "projectId" | "trigger" | "url" | "status" | "attempts" | "createdAt" | "updatedAt" | "lease">;

/**
 * Records the attempt and releases the lock, if the lock is still this attempt's: one that outlived
 * its lock (another sender has claimed the delivery since) leaves the item to that sender.
 */
async function finishAttempt(claim: { deliveryId: string; lease: Lease }, status: DeliveryStatus, attemptLog: AttemptLog) {
  const values: Record<string, unknown> = { ":st": status, ":at": new Date().toISOString(), ":leaseId": claim.lease.id };
  const sets = ["#st = :st", "updatedAt = :at"];
  for (const [k, v] of Object.entries(attemptLog)) {
    if (v === undefined) continue;
    sets.push(`${k} = :${k}`);
    values[`:${k}`] = v;
  }
  try {
    await updateItem({ ...deliveryKey(claim.deliveryId), update: `SET ${sets.join(", ")} REMOVE lease`, condition: "lease.id = :leaseId", names: { "#st": "status" }, values });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    log.warn("hook delivery attempt outlived its lock; not recorded", { deliveryId: claim.deliveryId, status });
  }
}

/** The triggering event as the payload shows it (nothing an SDK did not send). */
function eventSummary(eventId: string, item: { occurredAt?: string; receivedAt?: string; environment?: string; level?: string; release?: string; payloadGz?: Uint8Array } | undefined) {
  if (!item) return { event_id: eventId };
  let payload: Record<string, any> = {};
  try {
    payload = item.payloadGz ? JSON.parse(gunzipSync(item.payloadGz).toString("utf8")) : {};
  } catch {
    payload = {};
  }
  const exception = payload.exception?.values?.[payload.exception.values.length - 1];
  return {
    event_id: eventId,
    timestamp: item.occurredAt ?? null,
    received_at: item.receivedAt ?? null,
    level: item.level ?? null,
    environment: item.environment ?? null,
    release: item.release ?? null,
    platform: typeof payload.platform === "string" ? payload.platform : null,
    message: exception ? `${exception.type ?? "Error"}: ${exception.value ?? ""}` : (payload.logentry?.formatted ?? payload.message?.formatted ?? (typeof payload.message === "string" ? payload.message : null)),
    sdk: payload.sdk?.name ? { name: String(payload.sdk.name), version: String(payload.sdk.version ?? "") } : null,
  };
}

export function originOf(hook: HookRecord): string {
  return (instanceConfig().externalUrl ?? hook.origin).replace(/\/$/, "");
}

/** `object_kind: "error_tracking"` (the JSON schema kept with the tests pins it). */
export function buildPayload(hook: HookRecord, project: Project, error: ErrorItem | undefined, eventId: string, eventItem: Parameters<typeof eventSummary>[1], trigger: Trigger | { kind: "test" }) {
  const origin = originOf(hook);
  const path = fullPathOf(project);
  const errorId = "errorId" in trigger ? trigger.errorId : error?.errorId;
  return {
    object_kind: "error_tracking",
    event_type: trigger.kind,
    trigger:
      trigger.kind === "threshold"
        ? { kind: trigger.kind, threshold: trigger.threshold, window_seconds: trigger.windowSeconds, window_start: trigger.windowStart }
        : trigger.kind === "regression"
          ? { kind: trigger.kind, resolved_at: trigger.resolvedAt }
          : { kind: trigger.kind },
    project: { id: project.id, name: project.name, path_with_namespace: path, web_url: `${origin}/${path}` },
    error: {
      id: errorId ?? null,
      title: error ? titleOf(error) : null,
      culprit: error?.actor ?? null,
      status: error?.status ?? null,
      count: error?.eventsCount ?? 0,
      user_count: error?.userCount ?? 0,
      first_seen: error?.firstSeen ?? null,
      last_seen: error?.lastSeen ?? null,
      url: errorId !== undefined ? `${origin}/${path}/-/error_tracking/${errorId}/details` : null,
    },
    event: eventSummary(eventId, eventItem),
  };
}

/** The error and the triggering event as stored now; undefined when the event is not (or no longer) there. */
export async function triggerContext(projectId: number, errorId: number, eventId: string) {
  const ek = errorKey(projectId, errorId);
  const vk = eventKey(projectId, eventId);
  const [error, event] = await Promise.all([getItem<ErrorItem>(ek.pk, ek.sk), getItem<Parameters<typeof eventSummary>[1] & object>(vk.pk, vk.sk)]);
  return { error, event };
}

/**
 * POSTs `payload` to the hook through the outbound filter; logs the attempt on the delivery item.
 * The hook's custom headers go with it (masked in the log, like the token) and its URL variables fill
 * its URL; a URL naming a variable the hook lacks is not sent (GitLab's `Invalid URL template`). A
 * resend keeps the first delivery's `Idempotency-Key` (`idempotencyKey`), as GitLab's does.
 */
export async function attempt(hook: HookRecord, claim: { deliveryId: string; lease: Lease }, payload: unknown, idempotencyKey = claim.deliveryId): Promise<AttemptResult> {
  const { deliveryId } = claim;
  const body = JSON.stringify(payload);
  const custom = entries(hook.customHeaders);
  const headers: Record<string, string> = {
    ...Object.fromEntries(custom.map(([k, v]) => [k, Buffer.from(v, "utf8").toString("latin1")])),
    "Content-Type": "application/json",
    "User-Agent": "GitLab/16.11.0-forgeline",
    "X-Gitlab-Event": HOOK_EVENT_HEADER,
    "X-Gitlab-Event-UUID": deliveryId,
    "X-Gitlab-Webhook-UUID": deliveryId,
    "X-Gitlab-Instance": originOf(hook),
    "Idempotency-Key": idempotencyKey,
  };
  const token = hookToken(hook);
  // As its UTF-8 bytes, as GitLab sends it (Node writes a header string's code units as bytes).
  if (token) headers["X-Gitlab-Token"] = Buffer.from(token, "utf8").toString("latin1");
  // What the log shows: the token and custom header values masked, as GitLab shows them.
  const logged = { ...headers, ...Object.fromEntries(custom.map(([k]) => [k, "[REDACTED]"])), ...(token ? { "X-Gitlab-Token": "[REDACTED]" } : {}) };
  const target = interpolatedUrl(hook);
  const started = Date.now();
  let result: AttemptResult;
  let response: { headers?: Record<string, string>; body?: string } = {};
  try {
    if ("missing" in target) throw new MissingUrlVariables(target.missing);
    const res = await outboundFetch(target.url, { method: "POST", headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }, await outboundPolicy());
    const text = await res.text().catch(() => "");
    response = { headers: Object.fromEntries(res.headers), body: text.slice(0, MAX_RESPONSE_BODY) };
    const ok = res.status >= 200 && res.status < 300;
    result = { ok, retryable: !ok && (res.status >= 500 || res.status === 429), status: String(res.status) };
  } catch (err) {
    const final = err instanceof BlockedUrlError || err instanceof MissingUrlVariables;
    result = { ok: false, retryable: !final, status: "internal error" };
    response = { body: final ? err.message : "no answer" };
  }
  await finishAttempt(claim, result.ok ? "delivered" : "failed", {
    requestHeaders: logged,
    requestData: body,
    responseHeaders: response.headers ?? {},
    responseBody: response.body ?? "",
    responseStatus: result.status,
    executionDuration: (Date.now() - started) / 1000,
  });
  return result;
}

class MissingUrlVariables extends Error {
  constructor(keys: string[]) {
    super(`Invalid URL template. Missing keys: [${keys.map((k) => JSON.stringify(k)).join(", ")}]`);
  }
}

/** One delivery of the hook's log by its id (GitLab's `web_hook_logs.find`), from the hook's log index. */
export async function findDelivery(hookId: number, id: number): Promise<DeliveryRecord | undefined> {
  const page = await queryPage<DeliveryRecord>({ index: GSI1, pk: hookLogPk(hookId), filter: { expression: "id = :id", values: { ":id": id } }, offset: 0, limit: 1 });
  return page.items[0];
}

/**
 * GitLab's resend of a logged delivery: the same request data sent again now, to the hook as it is
 * now (its URL, token, custom headers), as a new delivery in the log, with the first one's
 * `Idempotency-Key` so the receiver can tell it is the same event.
 */
export async function resendDelivery(hook: HookRecord, logged: DeliveryRecord): Promise<AttemptResult> {
  const claim = await claimDelivery({ deliveryId: crypto.randomUUID(), hookId: hook.id, projectId: hook.projectId, trigger: logged.trigger, url: hook.url });
  if (!("claimed" in claim)) throw new Error("a fresh delivery id was taken");
  const payload = logged.requestData ? (JSON.parse(logged.requestData) as unknown) : {};
  return attempt(hook, claim.claimed, payload, logged.requestHeaders?.["Idempotency-Key"] ?? logged.deliveryId);
}

/** A test delivery (`POST …/hooks/:hook_id/test/error_tracking_events`): the project's latest error, or a sample. */
export async function testDelivery(hook: HookRecord, project: Project, sample: { error?: ErrorItem; eventId?: string; event?: Parameters<typeof eventSummary>[1] }): Promise<AttemptResult> {
  const deliveryId = crypto.randomUUID();
  const claim = await claimDelivery({ deliveryId, hookId: hook.id, projectId: project.id, trigger: "error_tracking_events", url: hook.url });
  if (!("claimed" in claim)) throw new Error("a fresh delivery id was taken");
  const payload = buildPayload(hook, project, sample.error, sample.eventId ?? "00000000000000000000000000000000", sample.event, { kind: "test" });
  return attempt(hook, claim.claimed, payload);
}
