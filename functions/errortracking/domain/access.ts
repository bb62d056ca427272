/**
 * Who may do what (GitLab permissions):
 * - settings and client keys: `admin_operations`, Maintainer+ (401 / 403 / 404 for a project the
 *   caller cannot see);
 * - the project-scoped UI JSON: `read_sentry_issue` (Reporter+) and `update_sentry_issue`
 *   (Developer+). Those controllers answer every refusal with 404, and the project's Monitor feature
 *   being disabled prevents all of them (`monitor_disabled` rule) — also 404.
 */
import { ApiError, forbidden } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel } from "../../hosting/domain/access.js";
import { visibleProject, type Project } from "../../hosting/domain/projects.js";

export async function maintainedProject(principal: Principal, idOrPath: string): Promise<Project> {
  const { project, level } = await visibleProject(principal, idOrPath);
  if (level < AccessLevel.maintainer) throw forbidden();
  return project;
}

export const notFoundJson = () => new ApiError(404, { message: "404 Not Found" });

export async function monitoredProject(principal: Principal, fullPath: string, minLevel: number): Promise<Project> {
  const found = await visibleProject(principal, fullPath).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  });
  if (!found || found.project.features.monitor_access_level === "disabled" || found.level < minLevel) throw notFoundJson();
  return found.project;
}

export const READ_LEVEL = AccessLevel.reporter;
export const UPDATE_LEVEL = AccessLevel.developer;
