import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { unlinkFork } from "../domain/fork-links.js";
import { visibleProject } from "../domain/projects.js";
import { projectParams } from "./schemas.js";

/**
 * GitLab's `DELETE /projects/:id/fork`: the project's Owners (`remove_fork_project`) end its fork
 * relation: 204, or GitLab's 304 when it is not a fork.
 */
export const endpoint = defineEndpoint({ summary: "Delete a fork relationship between projects", access: "write", params: projectParams }, async ({ c, principal, params }) => {
  const { project, level } = await visibleProject(principal, params.id);
  if (level < AccessLevel.owner) throw forbidden();
  return c.body(null, (await unlinkFork(project)) ? 204 : 304);
});
export const handler = lambda(endpoint);
