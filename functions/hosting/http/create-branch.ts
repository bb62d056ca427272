import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { AccessLevel } from "../domain/access.js";
import { createBranch } from "../domain/git/index.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { branchView } from "./ref-views.js";
import { writableProject } from "./repository-access.js";
import { projectParams } from "./schemas.js";
import { recordContribution } from "../domain/contributions.js";

/**
 * GitLab's "Create repository branch" (Developer+): `branch` from `ref` (a branch, tag or commit),
 * through the one repository write path (409 read-only during a storage move); GitLab's 400s for an
 * invalid or taken name and a ref that names no commit.
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
    const project = await writableProject(principal, params.id);
    const branch = await withRepositoryWrite("project", project.id, (location) =>
      createBranch(location!.storage, location!.relativePath, { name: body.branch, ref: body.ref, defaultBranch: project.defaultBranch }),
    );
    await recordContribution(principal.user.id, project.id);
    return branchView(c, project, AccessLevel.developer, branch);
  },
);
export const handler = lambda(endpoint);
