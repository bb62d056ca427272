/**
 * What the project pages share: the project path from `/:p1/:p2(/:p3)/-/…`, the access rules of the
 * JSON they drive (refusals are 404, as GitLab's controllers), and the HTML 404 page.
 */
import type { Principal } from "../../identity/domain/auth.js";
import { ApiError } from "../../platform/http/errors.js";
import { visibleProject, fullPathOf, type Project } from "../../hosting/domain/projects.js";
import { AccessLevel } from "../../hosting/domain/access.js";
import { monitoredProject } from "../../errortracking/domain/access.js";
export { notFoundPage } from "./not-found.js";

// The pages take the same `/:p1/:p2(/:p3)/-/…` parameters as the error-tracking UI JSON routes.
import { projectPathOf } from "../../errortracking/http/params.js";
export { uiPathParams as pathParams, projectPathOf } from "../../errortracking/http/params.js";
export type PathParams = { p1: string; p2: string; p3?: string };

/** The project when the caller may read its errors (Monitor on, Reporter+); undefined → 404 page. */
export async function monitoredOrNothing(principal: Principal, params: PathParams, minLevel: number): Promise<Project | undefined> {
  return monitoredProject(principal, projectPathOf(params), minLevel).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  });
}

/** Maintainer+ (settings); refusals are 404 so a project's existence is not disclosed. */
export async function maintainedOrNothing(principal: Principal, params: PathParams): Promise<{ project: Project; level: number } | undefined> {
  const found = await visibleProject(principal, projectPathOf(params)).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  });
  return found && found.level >= AccessLevel.maintainer ? { project: found.project, level: found.level } : undefined;
}

export const projectUrlOf = (p: Project) => `/${fullPathOf(p)}`;
