import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { commitRelease } from "../domain/changelog/generate.js";
import { AccessLevel } from "../domain/access.js";
import { mayPushTo, protectedRules } from "../domain/protected-refs.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { projectParams } from "./schemas.js";
import { changelogFailure, changelogRequest, releaseParams } from "./changelog-params.js";
import { codeReader } from "./repository-access.js";
import { recordContribution } from "../domain/contributions.js";

/**
 * GitLab's "Add changelog data to a changelog file": the release section committed into `file`
 * (CHANGELOG.md) on `branch` (the default branch), through the one repository write path (409
 * read-only during a storage move); a file that has the version's section already is left as it is.
 * Pushing to the branch is needed (Developer+, not in an archived project, its protection allowing
 * it), else GitLab's 403.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Add changelog data to a changelog file",
    access: "write",
    params: projectParams,
    body: z.object({
      ...releaseParams,
      branch: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
      file: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
      message: z.optional(z.string().check(z.minLength(1), z.maxLength(100_000))),
    }),
  },
  async ({ c, principal, params, body }) => {
    const { project, level } = await codeReader(principal, params.id);
    const branch = body.branch ?? project.defaultBranch;
    // GitLab's `can_push_to_branch?`: a protected branch needs a rule that lets the caller push.
    if (level < AccessLevel.developer || project.archived || !(await mayPushTo(protectedRules(project), branch, { level, admin: principal.user.admin }))) {
      throw forbidden("You are not allowed to commit a changelog on this branch");
    }
    const request = changelogRequest(project, body, branch);
    await withRepositoryWrite("project", project.id, (location) =>
      commitRelease(location!, { ...request, file: body.file ?? "CHANGELOG.md", message: body.message, author: { name: principal.user.name, email: principal.user.email } }),
    ).catch(changelogFailure);
    await recordContribution(principal.user.id, project.id);
    // Grape answers the route's value, `status(200)`, as its JSON.
    return c.json(200, 200);
  },
);
export const handler = lambda(endpoint);
