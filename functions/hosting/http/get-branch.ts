import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { findBranch } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { protectedRules } from "../domain/protected-refs.js";
import { branchParams, branchView } from "./ref-views.js";
import { codeReader } from "./repository-access.js";

/** GitLab's "Get single repository branch"; `404 Branch Not Found` otherwise. */
export const endpoint = defineEndpoint({ summary: "Get a repository branch", access: "public", params: branchParams }, async ({ c, principal, params }) => {
  const { project, level } = await codeReader(principal, params.id);
  const branch = await readRepository("project", project.id, project, (loc) => findBranch(loc.storage, loc.relativePath, params.branch, project.defaultBranch));
  if (!branch) throw notFound("Branch");
  return branchView(c, project, { level, admin: !!principal?.user.admin }, branch, protectedRules(project));
});
export const handler = lambda(endpoint);
