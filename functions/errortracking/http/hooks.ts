/**
 * Shared by the project hook routes: parameters, the body of create/update (GitLab's attributes plus
 * `error_tracking_events` and its threshold), the URL check and the `ProjectHook` entity (the token
 * is never part of it).
 */
import * as z from "zod/mini";
import { bool, idOrPath, int, positiveInt } from "../../platform/http/params.js";
import { validationError } from "../../platform/http/errors.js";
import { checkOutboundUrl } from "../../platform/outbound/client.js";
import { BlockedUrlError } from "../../platform/outbound/policy.js";
import { outboundPolicy } from "../../identity/domain/settings.js";
import { EVENT_FLAGS, THRESHOLD_WINDOWS, type EventFlag, type HookChange, type HookRecord } from "../hooks/store.js";
import type { DeliveryRecord } from "../hooks/delivery.js";

export const hookParams = z.object({ id: idOrPath(), hook_id: positiveInt() });

const flagFields = Object.fromEntries(EVENT_FLAGS.map((f) => [f, z.optional(bool())])) as Record<EventFlag, z.ZodMiniOptional<ReturnType<typeof bool>>>;

const text = (max: number) => z.string().check(z.maxLength(max));

/** Create and update; `url` is required on create only (the create endpoint checks it). */
export const hookBody = z.object({
  url: z.optional(text(2048)),
  token: z.optional(z.nullable(text(255))),
  name: z.optional(z.nullable(text(255))),
  description: z.optional(z.nullable(text(2048))),
  enable_ssl_verification: z.optional(bool()),
  push_events_branch_filter: z.optional(z.nullable(text(5000))),
  ...flagFields,
  /** Alert when an error gets more than this many events within the window; 0 or null turns it off. */
  error_tracking_events_threshold: z.optional(z.nullable(z.pipe(int(), z.number().check(z.gte(0), z.lte(1_000_000))))),
  /** The window in seconds: 60, 300, 900, 3600 (default) or 86400. */
  error_tracking_events_window: z.optional(z.pipe(int(), z.number().check(z.refine((n) => (THRESHOLD_WINDOWS as readonly number[]).includes(n), `must be one of ${THRESHOLD_WINDOWS.join(", ")}`)))),
});
export type HookBody = z.output<typeof hookBody>;

/**
 * GitLab's URL validation of a hook: a valid http(s) URL the outbound filter allows. A host that
 * does not resolve yet is accepted, as GitLab accepts it; its deliveries are refused until it does.
 */
export async function checkHookUrl(url: string): Promise<string> {
  const trimmed = url.trim();
  if (!URL.canParse(trimmed) || !/^https?:$/.test(new URL(trimmed).protocol)) throw validationError({ url: ["is blocked: Only allowed schemes are http, https"] });
  try {
    await checkOutboundUrl(trimmed, await outboundPolicy(), { acceptUnresolved: true });
  } catch (err) {
    if (err instanceof BlockedUrlError) throw validationError({ url: [`is blocked: ${err.reason}`] });
    throw err;
  }
  return trimmed;
}

/**
 * GitLab refuses a token with a newline (`validates :token, format: { without: /\n/ }`): it travels
 * in `X-Gitlab-Token`. No header carries the other control characters either, so they are refused
 * alike rather than saved for deliveries that could never be sent.
 */
const UNSENDABLE_IN_HEADER = /[\x00-\x08\x0a-\x1f\x7f]/;

export async function changeOf(body: HookBody): Promise<HookChange> {
  if (body.token && UNSENDABLE_IN_HEADER.test(body.token)) throw validationError({ token: ["is invalid"] });
  const flags: Partial<Record<EventFlag, boolean>> = {};
  for (const f of EVENT_FLAGS) if (body[f] !== undefined) flags[f] = body[f];
  return {
    ...(body.url !== undefined ? { url: await checkHookUrl(body.url) } : {}),
    ...(body.token !== undefined ? { token: body.token ?? "" } : {}),
    ...(body.name !== undefined ? { name: body.name ?? "" } : {}),
    ...(body.description !== undefined ? { description: body.description ?? "" } : {}),
    ...(body.enable_ssl_verification !== undefined ? { enableSslVerification: body.enable_ssl_verification } : {}),
    ...(body.push_events_branch_filter !== undefined ? { pushEventsBranchFilter: body.push_events_branch_filter ?? "" } : {}),
    ...(body.error_tracking_events_threshold !== undefined ? { thresholdEvents: body.error_tracking_events_threshold || null } : {}),
    ...(body.error_tracking_events_window !== undefined ? { thresholdWindowSeconds: body.error_tracking_events_window } : {}),
    flags,
  };
}

/** GitLab's `ProjectHook` entity, plus the threshold of `error_tracking_events`. Never the token. */
export function hookEntity(h: HookRecord) {
  return {
    id: h.id,
    url: h.url,
    name: h.name,
    description: h.description,
    project_id: h.projectId,
    ...h.flags,
    push_events_branch_filter: h.pushEventsBranchFilter,
    enable_ssl_verification: h.enableSslVerification,
    alert_status: "executable",
    disabled_until: null,
    url_variables: Object.keys(h.urlVariables ?? {}).map((key) => ({ key })),
    custom_headers: Object.keys(h.customHeaders ?? {}).map((key) => ({ key })),
    error_tracking_events_threshold: h.thresholdEvents,
    error_tracking_events_window: h.thresholdWindowSeconds,
    created_at: h.createdAt,
  };
}

/** GitLab's `WebHookLog` entity (a hook's recent deliveries), plus when, which delivery and how many attempts. */
export function deliveryEntity(d: DeliveryRecord) {
  return {
    id: d.id,
    url: d.url,
    trigger: d.trigger,
    request_headers: d.requestHeaders ?? {},
    request_data: d.requestData ? (JSON.parse(d.requestData) as unknown) : null,
    response_headers: d.responseHeaders ?? {},
    response_body: d.responseBody ?? "",
    execution_duration: d.executionDuration ?? null,
    response_status: d.responseStatus ?? null,
    status: d.status,
    attempts: d.attempts,
    delivery_id: d.deliveryId,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}
