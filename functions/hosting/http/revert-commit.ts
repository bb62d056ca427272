import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError, notFound } from "../../platform/http/errors.js";
import { bool } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { ChangeError, getCommit, listBranches, revertCommit } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { fullPathOf } from "../domain/projects.js";
import { commitParams } from "./commit-schemas.js";
import { writableProject } from "./repository-access.js";

/**
 * GitLab's "Revert a commit": Developer+; `404 Commit Not Found` / `404 Branch Not Found` first, as
 * GitLab checks them before writing; then the one repository write path (409 read-only during a
 * storage move). A revert that does not apply answers 400 with GitLab's sentence and `error_code`
 * (`empty` when the commit is already undone, `conflict` otherwise). `dry_run=true` only checks.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Revert a commit on a branch",
    access: "write",
    status: 201,
    params: commitParams,
    body: z.object({
      branch: z.string().check(z.minLength(1), z.maxLength(255)),
      dry_run: z.optional(bool()),
    }),
  },
  async ({ c, principal, params, body }) => {
    const project = await writableProject(principal, params.id);
    const [commit, branches] = await readRepository("project", project.id, project, (loc) =>
      Promise.all([getCommit(loc.storage, loc.relativePath, params.sha), listBranches(loc.storage, loc.relativePath)]),
    );
    if (!commit) throw notFound("Commit");
    if (!branches.some((b) => b.name === body.branch)) throw notFound("Branch");
    const reverted = await withRepositoryWrite("project", project.id, (location) =>
      revertCommit(location!.storage, location!.relativePath, {
        commit: commit.id,
        branch: body.branch,
        author: { name: principal.user.name, email: principal.user.email },
        dryRun: body.dry_run,
      }),
    ).catch((err: unknown) => {
      // GitLab marks a dry run's failure as such: `"dry_run": "error"` beside the usual body.
      if (body.dry_run && err instanceof ChangeError) throw new ApiError(400, { message: err.message, error_code: err.errorCode, dry_run: "error" });
      throw err;
    });
    if (!reverted) return c.json({ dry_run: "success" }, 200);
    return { ...reverted, web_url: `${baseUrl(c)}/${fullPathOf(project)}/-/commit/${reverted.id}` };
  },
);
export const handler = lambda(endpoint);
