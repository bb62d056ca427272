/**
 * What the operator console's JSON routes share (`/admin/…json`, the pages' data, not GitLab's API):
 * administrators only, and to anyone else the same 404 GitLab's admin area gives, so the console's
 * existence is not disclosed; a poll interval that follows what is running.
 */
import type { Context } from "hono";
import { ApiError } from "../../../platform/http/errors.js";
import type { Principal } from "../../../identity/domain/auth.js";

export function assertAdmin(principal: Principal): void {
  if (!principal.user.admin) throw new ApiError(404, { message: "404 Not Found" });
}

/** How often the page asks again (`Poll-Interval`, ms, as GitLab's polling pages): often while moves run. */
export function pollEvery(c: Context, running: boolean): void {
  c.header("Poll-Interval", String(running ? 2000 : 10_000));
}

export const KIND_OF = { project: "project", snippet: "snippet", group: "group" } as const;
