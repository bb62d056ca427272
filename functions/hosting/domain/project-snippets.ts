/**
 * Who may do what with a project's snippets, as GitLab's project snippet policy has it:
 * - the project must be visible to the caller and its snippets feature on (`snippets_access_level`
 *   `private`: members only); otherwise GitLab answers 403;
 * - a snippet's own visibility then applies: private ones to members, internal ones to signed-in users;
 * - Reporters and above create; the author, Maintainers and above (and administrators) change or delete.
 * A snippet id that is not one of this project's snippets answers 404, like one the caller may not see.
 */
import { forbidden, notFound } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel, canSee } from "./access.js";
import { visibleProject, type Project } from "./projects.js";
import { findSnippet, listSnippetsOfProject, type Snippet } from "./snippets.js";

export interface ProjectSnippetAccess {
  project: Project;
  /** The caller's level in the project (0 for none). */
  level: number;
}

/** The project, if the caller may use its snippets at all. */
export async function projectForSnippets(principal: Principal | undefined, projectIdOrPath: string): Promise<ProjectSnippetAccess> {
  const { project, level } = await visibleProject(principal, projectIdOrPath);
  const feature = project.features.snippets_access_level;
  if (feature === "disabled" || (feature === "private" && level < AccessLevel.guest)) throw forbidden();
  return { project, level };
}

/** Creating needs Reporter or above. */
export async function projectForNewSnippet(principal: Principal, projectIdOrPath: string): Promise<ProjectSnippetAccess> {
  const access = await projectForSnippets(principal, projectIdOrPath);
  if (access.level < AccessLevel.reporter) throw forbidden();
  return access;
}

/** One snippet of the project the caller may see, and whether it may change it. */
export async function visibleProjectSnippet(principal: Principal | undefined, projectIdOrPath: string, snippetId: number) {
  const access = await projectForSnippets(principal, projectIdOrPath);
  const snippet = await findSnippet(snippetId);
  if (!snippet || snippet.projectId !== access.project.id || !canSee(principal, snippet.visibility, access.level)) throw notFound("Snippet");
  const mayWrite = !!principal && (access.level >= AccessLevel.maintainer || principal.user.id === snippet.authorId);
  return { ...access, snippet, mayWrite };
}

export async function writableProjectSnippet(principal: Principal, projectIdOrPath: string, snippetId: number) {
  const found = await visibleProjectSnippet(principal, projectIdOrPath, snippetId);
  if (!found.mayWrite) throw forbidden();
  return found;
}

/** A page of the project's snippets the caller may see, newest first. */
export async function listVisibleProjectSnippets(principal: Principal | undefined, access: ProjectSnippetAccess, offset: number, limit: number): Promise<{ snippets: Snippet[]; hasMore: boolean }> {
  const page = await listSnippetsOfProject(access.project.id, offset, limit);
  return { snippets: page.snippets.filter((s) => canSee(principal, s.visibility, access.level)), hasMore: page.hasMore };
}
