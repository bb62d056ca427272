/**
 * GitLab's authenticated API rate limit (Rack::Attack's `throttle_authenticated_api`), enforced on
 * every `/api/` request: when enabled, a request counts against its user in the current fixed window
 * of `period_in_seconds`; past `requests_per_period` it is refused until the window ends.
 *
 * The count holds across every function instance: one DynamoDB item per user and window, bumped with
 * an atomic `ADD` and dropped by TTL (`expireAt`) a minute after its window. The settings item is kept
 * per instance as long as a token's principal is (`FORGELINE_AUTH_CACHE_MS`), so while the throttle
 * is off a request costs no read most of the time. This module is in every function's bundle, so it
 * is kept to the bone: GitLab's names, defaults and validation live with the settings (`settings.ts`).
 */
import type { Context } from "hono";
import { getItem, updateItem } from "../../platform/db/table.js";
import { ApiError } from "../../platform/http/errors.js";
import type { Principal } from "./auth.js";
import { settingsKey } from "./keys.js";
import { principalCacheMs } from "./principal-cache.js";

/**
 * The authenticated API throttle as the settings item stores it: one map, always whole (`settings.ts`
 * shows and saves it under GitLab's names, with GitLab's defaults).
 */
export interface StoredThrottle {
  enabled: boolean;
  limit: number;
  period: number;
}

let cached: [until: number, item: Promise<{ throttle?: StoredThrottle } | undefined>] | undefined;

/** The instance that saves the settings sees them at once; others within the cache's lifetime. */
export function forgetThrottleSettings(): void {
  cached = undefined;
}

/**
 * Counts a user's request on `/api/` (its token's owner — before any `sudo`, as Rack::Attack sees
 * it) in the fixed window `floor(now / period)`, on the item `THROTTLE#<user>#<period>#<window>`,
 * which TTL drops a minute after the window ends; past the limit it refuses the request with
 * Rack::Attack's answer: 429, `Retry later` as plain text and `Retry-After`, the seconds to the
 * window's end. When the table cannot be reached the request goes through: a throttle must not take
 * the API down.
 */
export async function enforceApiThrottle(c: Context, principal: Principal | undefined, nowMs = Date.now()): Promise<void> {
  if (!principal || !c.req.path.startsWith("/api/")) return;
  if (!cached || cached[0] <= nowMs) cached = [nowMs + principalCacheMs(), getItem<{ throttle?: StoredThrottle }>(settingsKey.pk, settingsKey.sk).catch(() => undefined)];
  const rule = (await cached![1])?.throttle;
  if (!rule?.enabled) return;
  const { period } = rule;
  const now = Math.floor(nowMs / 1000);
  const window = Math.floor(now / period);
  const resetAt = (window + 1) * period;
  // Every request of a window sets the same expiry: the window's end, and a minute.
  const counted = await updateItem({ pk: `THROTTLE#${principal.token.userId}#${period}#${window}`, sk: "COUNT", update: "ADD hits :n SET expireAt = :x", values: { ":n": 1, ":x": resetAt + 60 } }).catch(
    () => undefined,
  );
  if ((counted?.hits as number) > rule.limit) throw new ApiError(429, "Retry later\n", { "Retry-After": `${resetAt - now}` });
}
