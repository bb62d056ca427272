/** Who may read or write a project's repository (GitLab's `read_code` / `push_code`). */
import type { Principal } from "../../identity/domain/auth.js";
import { forbidden, notFound } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { visibleProject } from "../domain/projects.js";

/**
 * The project with the caller's level, if the caller may read its code. A caller below Reporter on a
 * private project gets 404, or, with `denied: "forbidden"`, GitLab's 403 of `authorize_read_code!`.
 */
export async function codeReader(principal: Principal | undefined, id: string, opts: { denied?: "forbidden" } = {}) {
  const { project, level } = await visibleProject(principal, id);
  const feature = project.features.repository_access_level;
  if (feature === "disabled") throw notFound("Repository");
  // Private projects (or a private repository feature) need Reporter+ to read code.
  const needs = project.visibility === "private" || feature === "private" ? AccessLevel.reporter : 0;
  if (level < needs) throw opts.denied === "forbidden" ? forbidden() : notFound("Project");
  return { project, level };
}

export async function readableProject(principal: Principal | undefined, id: string) {
  return (await codeReader(principal, id)).project;
}

/** Developer+ pushes; a visible project without that level, or an archived one, answers 403 (GitLab). */
export async function projectWriter(principal: Principal, id: string) {
  const { project, level } = await codeReader(principal, id);
  if (level < AccessLevel.developer) throw forbidden();
  if (project.archived) throw forbidden("You are not allowed to push into this branch");
  return { project, level };
}

export const writableProject = async (principal: Principal, id: string) => (await projectWriter(principal, id)).project;
