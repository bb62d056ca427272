import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { deleteBranch, findBranch } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { branchParams } from "./ref-views.js";
import { checkRefChange } from "./protected-writes.js";
import { projectWriter } from "./repository-access.js";
import { recordContribution } from "../domain/contributions.js";

/**
 * GitLab's "Delete repository branch" (Developer+): `404 Branch Not Found` first, as GitLab looks the
 * branch up before writing; the default branch is refused (400), and a protected branch unless the
 * caller is a Maintainer (400 with GitLab's sentence); then the one repository write path (409
 * read-only during a storage move). 204 when done.
 */
export const endpoint = defineEndpoint({ summary: "Delete a repository branch", access: "write", params: branchParams }, async ({ c, principal, params }) => {
  const { project, level } = await projectWriter(principal, params.id);
  const found = await readRepository("project", project.id, project, (loc) => findBranch(loc.storage, loc.relativePath, params.branch, project.defaultBranch));
  if (!found) throw notFound("Branch");
  const guard = () => checkRefChange(project, level, principal, { ref: `refs/heads/${params.branch}`, old: found.commit.id });
  const deleted = await withRepositoryWrite("project", project.id, (location) =>
    deleteBranch(location!.storage, location!.relativePath, { name: params.branch, defaultBranch: project.defaultBranch, guard }),
  );
  if (!deleted) throw notFound("Branch");
  await recordContribution(principal.user.id, project.id);
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
