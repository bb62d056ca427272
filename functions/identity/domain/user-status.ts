/**
 * A user's status (GitLab's `UserStatus`: an emoji, a message, `busy` availability, and when it
 * clears itself), one item beside the user. A status past its `clear_status_at` is gone, as GitLab's
 * cleanup job leaves it; here it is simply not shown (and replaced by the next one set).
 */
import { deleteItem, getItem, putItem } from "../../platform/db/table.js";
import { userStatusKey } from "./keys.js";
import { escapeHtml } from "../../platform/escape-html.js";

export interface UserStatus {
  emoji: string | null;
  message: string | null;
  availability: "not_set" | "busy" | null;
  clearStatusAt: string | null;
}

/** GitLab's `UserStatus::CLEAR_STATUS_QUICK_OPTIONS`, in hours. */
export const CLEAR_STATUS_AFTER = { "30_minutes": 0.5, "3_hours": 3, "8_hours": 8, "1_day": 24, "3_days": 72, "7_days": 168, "30_days": 720 } as const;
export type ClearStatusAfter = keyof typeof CLEAR_STATUS_AFTER;

/** GitLab's `UserStatus::DEFAULT_EMOJI`, given to a status set without one. */
export const DEFAULT_EMOJI = "speech_balloon";

export async function findStatus(userId: number, now = new Date()): Promise<UserStatus | undefined> {
  const item = await getItem<UserStatus>(userStatusKey(userId).pk, userStatusKey(userId).sk, false);
  if (!item || (item.clearStatusAt && item.clearStatusAt <= now.toISOString())) return undefined;
  return { emoji: item.emoji, message: item.message, availability: item.availability, clearStatusAt: item.clearStatusAt };
}

/** What the request sets: every field for `PUT` (absent ones null), the current status overlaid for `PATCH`. */
export interface StatusChange {
  emoji?: string | null;
  message?: string | null;
  availability?: "not_set" | "busy" | null;
  clear_status_after?: ClearStatusAfter | null;
}

/** When a status set now with `after` clears itself. */
export const clearAt = (after: ClearStatusAfter, now = new Date()) => new Date(now.getTime() + CLEAR_STATUS_AFTER[after] * 3_600_000).toISOString();

/**
 * GitLab's `Users::SetStatusService`: with an emoji, a message or `busy` the status is set (the
 * emoji defaulting to `speech_balloon`), otherwise it is removed.
 */
export async function setStatus(userId: number, next: UserStatus): Promise<UserStatus | undefined> {
  if (!next.emoji && !next.message && (!next.availability || next.availability === "not_set")) {
    await deleteItem(userStatusKey(userId).pk, userStatusKey(userId).sk);
    return undefined;
  }
  const status: UserStatus = { emoji: next.emoji || DEFAULT_EMOJI, message: next.message || null, availability: next.availability || "not_set", clearStatusAt: next.clearStatusAt };
  await putItem({ ...userStatusKey(userId), type: "user-status", ...status });
  return status;
}

/**
 * GitLab's `UserStatus` entity. `message_html` is the message as HTML: escaped text, since Markdown
 * and emoji codes are not rendered here.
 */
export const statusView = (s: UserStatus | undefined) => ({
  emoji: s?.emoji ?? null,
  availability: s?.availability ?? null,
  message: s?.message ?? null,
  message_html: s?.message ? escapeHtml(s.message) : null,
  clear_status_at: s?.clearStatusAt ?? null,
});
