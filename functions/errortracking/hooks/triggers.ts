/**
 * What makes an error tracking hook fire, decided by the consumer inside the event's own transaction
 * (`../domain/record-events.ts`), so each trigger belongs to exactly one event:
 * - `new_error`: the event created its error (the first event of a group);
 * - `regression`: the first event after the error was resolved (the resolution arms a watch on the
 *   error item; the event whose transaction removes it fires);
 * - `threshold`: the event that takes an error's count in a fixed window past a hook's threshold.
 *
 * The triggers are written on the event item too, so a redelivered message (a duplicate) enqueues
 * them again; the delivery id is derived from hook + trigger, so the copies collapse into one
 * delivery (`delivery.ts` claims it once).
 */
import { createHash } from "node:crypto";
import type { HookRecord } from "./store.js";

export type Trigger =
  | { kind: "new_error"; errorId: number }
  | { kind: "regression"; errorId: number; resolvedAt: string }
  | { kind: "threshold"; errorId: number; windowSeconds: number; windowStart: string; threshold: number };

/** What the consumer must detect for a project's alerting hooks (nothing more: detection has a cost). */
export interface Watch {
  /** Fire `new_error` on the event that creates its error (the group's state read says so; no extra read). */
  detectNew: boolean;
  /** Per window length, the thresholds whose crossing fires (count goes from N to N + 1). */
  windows: Array<{ seconds: number; thresholds: number[] }>;
}

export const NO_WATCH: Watch = { detectNew: false, windows: [] };

export function watchOf(hooks: readonly HookRecord[]): Watch {
  if (hooks.length === 0) return NO_WATCH;
  const windows = new Map<number, Set<number>>();
  for (const h of hooks) {
    if (!h.thresholdEvents) continue;
    const set = windows.get(h.thresholdWindowSeconds) ?? new Set<number>();
    set.add(h.thresholdEvents);
    windows.set(h.thresholdWindowSeconds, set);
  }
  return { detectNew: true, windows: [...windows].map(([seconds, t]) => ({ seconds, thresholds: [...t].sort((a, b) => a - b) })) };
}

/** The fixed window (of `seconds`) an ISO time falls in, as the ISO time it starts at. */
export const windowStartOf = (iso: string, seconds: number) => new Date(Math.floor(Date.parse(iso) / (seconds * 1000)) * seconds * 1000).toISOString();

/** The hooks a trigger is for: every alerting hook, or those whose threshold and window it crossed. */
export function hooksFor(trigger: Trigger, hooks: readonly HookRecord[]): HookRecord[] {
  if (trigger.kind !== "threshold") return [...hooks];
  return hooks.filter((h) => h.thresholdEvents === trigger.threshold && h.thresholdWindowSeconds === trigger.windowSeconds);
}

/** What identifies a trigger for all time (the same event redelivered gives the same key). */
export function triggerKey(t: Trigger, eventId: string): string {
  if (t.kind === "new_error") return `new_error:${t.errorId}:${eventId}`;
  if (t.kind === "regression") return `regression:${t.errorId}:${t.resolvedAt}`;
  return `threshold:${t.errorId}:${t.windowSeconds}:${t.windowStart}:${t.threshold}`;
}

/** One delivery id per hook and trigger, in UUID form (GitLab's `X-Gitlab-Event-UUID`). */
export function deliveryId(hookId: number, key: string): string {
  const h = createHash("sha256").update(`${hookId}\u0000${key}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
