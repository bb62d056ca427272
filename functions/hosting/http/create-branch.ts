import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { commitActions, createBranch, listBranches } from "../domain/git/index.js";
import { protectedRules } from "../domain/protected-refs.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { branchView } from "./ref-views.js";
import { checkRefChange } from "./protected-writes.js";
import { projectWriter } from "./repository-access.js";
import { projectParams } from "./schemas.js";
import { recordContribution } from "../domain/contributions.js";

/**
 * GitLab's "Create repository branch" (Developer+): `branch` from `ref` (a branch, tag or commit),
 * through the one repository write path (409 read-only during a storage move); GitLab's 400s for an
 * invalid or taken name, a ref that names no commit, and a protected name the caller may neither
 * push nor merge to. In an empty repository GitLab's `Branches::CreateService` first commits an
 * empty `README.md` to the default branch ("Add README.md", by the caller, under the default
 * branch's protection), then creates the branch: `ref=main` works on a new project.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Create a repository branch",
    access: "write",
    status: 201,
    params: projectParams,
    body: z.object({ branch: z.string().check(z.minLength(1), z.maxLength(1024)), ref: z.string().check(z.minLength(1), z.maxLength(1024)) }),
  },
  async ({ c, principal, params, body }) => {
    const { project, level } = await projectWriter(principal, params.id);
    const actor = { level, admin: principal.user.admin };
    const rules = protectedRules(project);
    const branch = await withRepositoryWrite("project", project.id, async (location) => {
      const { storage, relativePath } = location!;
      if ((await listBranches(storage, relativePath)).length === 0) {
        // The README commit creates the default branch: the push check of an empty repository's first branch.
        await checkRefChange(project, level, principal, { ref: `refs/heads/${project.defaultBranch}`, new: "README.md" }, true);
        const author = { name: principal.user.name, email: principal.user.email };
        await commitActions(storage, relativePath, { branch: project.defaultBranch, message: "Add README.md", author, actions: [{ action: "create", file_path: "README.md", content: "" }] });
      }
      const guard = () => checkRefChange(project, level, principal, { ref: `refs/heads/${body.branch}`, new: body.ref });
      return createBranch(storage, relativePath, { name: body.branch, ref: body.ref, defaultBranch: project.defaultBranch, guard });
    });
    await recordContribution(principal.user.id, project.id);
    return branchView(c, project, actor, branch, rules);
  },
);
export const handler = lambda(endpoint);
