/**
 * What revert and cherry-pick share (GitLab's `Commits::ChangeService` routes): Developer+, onto a
 * branch the caller may push to (`branchWriter`: GitLab's `authorize_push_to_branch!`);
 * `404 Commit Not Found` / `404 Branch Not Found` first, as GitLab checks them before writing; then
 * the one repository write path (409 read-only during a storage move). A change that does not apply
 * answers 400 with GitLab's sentence and `error_code` (`empty` when the branch already has it,
 * `conflict` otherwise); `dry_run=true` only checks, and marks its failure `"dry_run": "error"`.
 */
import type { Context } from "hono";
import type { Principal } from "../../identity/domain/auth.js";
import { ApiError, notFound } from "../../platform/http/errors.js";
import { ChangeError, getCommit, listBranches, type ChangeInput, type CommitInfo } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { withRepositoryWrite, type RepositoryLocation } from "../domain/write-path.js";
import { commitView } from "./ref-views.js";
import { branchWriter } from "./protected-writes.js";
import { recordContribution } from "../domain/contributions.js";

export async function applyCommitChange(
  c: Context,
  principal: Principal,
  params: { id: string; sha: string },
  body: { branch: string; dry_run?: boolean },
  apply: (location: RepositoryLocation, input: ChangeInput) => Promise<CommitInfo | undefined>,
): Promise<Response | unknown> {
  const project = await branchWriter(principal, params.id, body.branch);
  const [commit, branches] = await readRepository("project", project.id, project, (loc) =>
    Promise.all([getCommit(loc.storage, loc.relativePath, params.sha), listBranches(loc.storage, loc.relativePath)]),
  );
  if (!commit) throw notFound("Commit");
  if (!branches.some((b) => b.name === body.branch)) throw notFound("Branch");
  const made = await withRepositoryWrite("project", project.id, (location) =>
    apply(location!, { commit: commit.id, branch: body.branch, author: { name: principal.user.name, email: principal.user.email }, dryRun: body.dry_run }),
  ).catch((err: unknown) => {
    if (body.dry_run && err instanceof ChangeError) throw new ApiError(400, { message: err.message, error_code: err.errorCode, dry_run: "error" });
    throw err;
  });
  if (!made) return c.json({ dry_run: "success" }, 200);
  await recordContribution(principal.user.id, project.id);
  return commitView(c, project, made);
}
