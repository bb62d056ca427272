/** Who may use the offered tracker API, and how its projects and issues are found. */
import * as z from "zod/mini";
import { ApiError } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { listAllProjects, listVisibleProjects, fullPathOf, type Project } from "../../hosting/domain/projects.js";
import { monitoredProject, READ_LEVEL } from "../domain/access.js";
import { findSetting, integratedEnabled } from "../domain/settings.js";
import { getError, type ErrorItem } from "../domain/errors.js";

export const detail = (status: number, text: string) => new ApiError(status, { detail: text });
export const notFound = () => detail(404, "The requested resource does not exist");

/** Sentry's 401/403 wording; `read_api` reads, `api` reads and writes. */
export function trackerUser(principal: Principal | undefined, write: boolean): Principal {
  if (!principal) throw detail(401, "Authentication credentials were not provided.");
  const ok = principal.scopes.includes("api") || (!write && principal.scopes.includes("read_api"));
  if (!ok) throw detail(403, "You do not have permission to perform this action.");
  return principal;
}

export const orgSlugOf = (p: Project) => p.namespace.fullPath.replace(/\//g, "~");
export const fullPathFromSlugs = (org: string, proj: string) => `${org.replace(/~/g, "/")}/${proj}`;

export const issueIdParams = z.object({ issue_id: z.string().check(z.regex(/^\d{1,16}$/)) });

/** A project of the caller with integrated tracking on (404 otherwise, as every refusal). */
export async function trackedProject(principal: Principal, fullPath: string, minLevel: number = READ_LEVEL): Promise<Project> {
  const project = await monitoredProject(principal, fullPath, minLevel).catch(() => undefined);
  if (!project || !integratedEnabled(await findSetting(project.id))) throw notFound();
  return project;
}

const MAX_PROJECTS = 1000;

/** The caller's projects (members; all for admins), bounded at MAX_PROJECTS (documented limit). */
export async function callerProjects(principal: Principal): Promise<Project[]> {
  const out: Project[] = [];
  for (let offset = 0; offset < MAX_PROJECTS; offset += 100) {
    const page = principal.user.admin ? await listAllProjects(offset, 100) : await listVisibleProjects(principal, offset, 100, { membership: true });
    out.push(...page.projects);
    if (page.projects.length < 100) break;
  }
  return out;
}

/** The issue with this id among the caller's tracked projects; 404 when none has it. */
export async function findIssue(principal: Principal, issueId: number, minLevel: number = READ_LEVEL): Promise<{ project: Project; error: ErrorItem }> {
  for (const candidate of await callerProjects(principal)) {
    const error = await getError(candidate.id, issueId);
    if (!error) continue;
    return { project: await trackedProject(principal, fullPathOf(candidate), minLevel), error };
  }
  throw notFound();
}
