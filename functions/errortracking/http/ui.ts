/** What the project-scoped UI JSON routes share: access, the enabled check, the polling header. */
import type { Context } from "hono";
import { ApiError } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { monitoredProject } from "../domain/access.js";
import { findSetting, integratedEnabled } from "../domain/settings.js";
import { projectPathOf } from "./params.js";
import { connectionOf, isThirdParty } from "../thirdparty/backend.js";

/** `Gitlab::PollingInterval` as `Projects::ErrorTracking::BaseController` sets it (ms). */
export const POLL_INTERVAL_MS = 1000;

/**
 * The project if the caller may use its error tracking (404 otherwise, Monitor disabled included),
 * then 400 `Error Tracking is not enabled` unless a backend is on (GitLab's services). `tracker` is set
 * when the backend is a third-party tracker: the handlers then answer from it (`../thirdparty/backend.ts`).
 */
export async function uiProject(c: Context, principal: Principal, params: { p1: string; p2: string; p3?: string }, minLevel: number) {
  const project = await monitoredProject(principal, projectPathOf(params), minLevel);
  const setting = await findSetting(project.id);
  const tracker = isThirdParty(setting) ? connectionOf(setting) : undefined;
  if (!tracker && !integratedEnabled(setting)) throw new ApiError(400, { message: "Error Tracking is not enabled" });
  c.header("Poll-Interval", String(POLL_INTERVAL_MS));
  return { project, setting: setting!, tracker };
}

export const errorNotFound = () => new ApiError(404, { message: "404 Error Not Found" });
