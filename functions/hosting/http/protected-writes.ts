/**
 * The protected branches and tags checks of the API's writes (`domain/protected-refs.ts`), as
 * GitLab's API makes them: `authorize_push_to_branch!` before a commit (403 `You are not allowed to
 * push into this branch`), and its push checks "from the web" for a branch or tag created or deleted
 * (400 with the check's sentence, as GitLab's branch and tag services answer a refused update).
 */
import type { Principal } from "../../identity/domain/auth.js";
import { ApiError, forbidden } from "../../platform/http/errors.js";
import { listBranches } from "../domain/git/index.js";
import type { Project } from "../domain/projects.js";
import { mayPushTo, protectedRules, refRefusal, type RefChange } from "../domain/protected-refs.js";
import { readRepository } from "../domain/read-path.js";
import { projectWriter } from "./repository-access.js";

/**
 * The project, if the caller may push to `branch` of it: Developer+ (`projectWriter`), and the
 * branch's protection lets them (in an empty repository, as GitLab lets the first push through).
 */
export async function branchWriter(principal: Principal, id: string, branch: string, denied = "You are not allowed to push into this branch"): Promise<Project> {
  const { project, level } = await projectWriter(principal, id);
  const isEmpty = async () => (await readRepository("project", project.id, project, (loc) => listBranches(loc.storage, loc.relativePath))).length === 0;
  if (!(await mayPushTo(protectedRules(project), branch, { level, admin: principal.user.admin }, isEmpty))) throw forbidden(denied);
  return project;
}

/**
 * GitLab's push checks of a ref the API creates or deletes (`BranchCheck`, `TagCheck` from the web):
 * 400 with the refusal. `empty`: the repository has no branch yet.
 */
export async function checkRefChange(project: Project, level: number, principal: Principal, change: RefChange, empty = false): Promise<void> {
  const refusal = refRefusal(protectedRules(project), change, { actor: { level, admin: principal.user.admin }, defaultBranch: project.defaultBranch, web: true, empty });
  if (refusal) throw new ApiError(400, { message: refusal });
}
