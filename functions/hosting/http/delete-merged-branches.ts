import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { deleteMergedBranches } from "../domain/git/index.js";
import { protectedRules, rulesFor } from "../domain/protected-refs.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { writableProject } from "./repository-access.js";
import { projectParams } from "./schemas.js";

/**
 * GitLab's "Delete merged branches" (Developer+): every branch merged into the default branch goes,
 * except protected ones, through the one repository write path (409 read-only during a storage
 * move). GitLab answers `202 Accepted` and deletes in the background; here the branches are gone
 * when the answer comes.
 */
export const endpoint = defineEndpoint({ summary: "Delete merged branches", access: "write", params: projectParams }, async ({ c, principal, params }) => {
  const project = await writableProject(principal, params.id);
  const rules = protectedRules(project);
  await withRepositoryWrite("project", project.id, (location) =>
    deleteMergedBranches(location!.storage, location!.relativePath, { defaultBranch: project.defaultBranch, keep: (name) => rulesFor(rules, "branch", name).length > 0 }),
  );
  return c.json({ message: "202 Accepted" }, 202);
});
export const handler = lambda(endpoint);
