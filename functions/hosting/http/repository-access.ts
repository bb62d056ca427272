/** Who may read or write a project's repository (GitLab's `read_code` / `push_code`). */
import type { Principal } from "../../identity/domain/auth.js";
import { forbidden, notFound } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { visibleProject } from "../domain/projects.js";

/** Private projects need Reporter+ to read code; a disabled repository feature hides it (404). */
export async function readableProject(principal: Principal | undefined, id: string) {
  const { project, level } = await visibleProject(principal, id);
  const feature = project.features.repository_access_level;
  if (feature === "disabled") throw notFound("Repository");
  const needs = project.visibility === "private" || feature === "private" ? AccessLevel.reporter : 0;
  if (level < needs) throw notFound("Project");
  return project;
}

/** Developer+ pushes; a visible project without that level answers 403. */
export async function writableProject(principal: Principal, id: string) {
  const project = await readableProject(principal, id);
  const { level } = await visibleProject(principal, id);
  if (level < AccessLevel.developer) throw forbidden();
  return project;
}
