import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { withReservedSpace } from "../../platform/space-reserve.js";
import { AccessLevel } from "../domain/access.js";
import { deleteProject, visibleProject } from "../domain/projects.js";
import { projectParams } from "./schemas.js";

/** Owner or admin; 202 as GitLab. Deletion is immediate here (no delayed-deletion grace period). */
export const endpoint = defineEndpoint({ summary: "Delete a project", access: "write", params: projectParams }, async ({ c, principal, params }) => {
  const { project, level } = await visibleProject(principal, params.id);
  if (level < AccessLevel.owner) throw forbidden();
  // Deleting is how an administrator makes room: it runs with the space reserve, so a full disk does not stop it.
  await withReservedSpace(() => deleteProject(project));
  return c.json({ message: "202 Accepted" }, 202);
});
export const handler = lambda(endpoint);
