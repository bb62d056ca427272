import { defineEndpoint, type Endpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { setArchived, visibleProject } from "../domain/projects.js";
import { projectDetailView } from "../domain/project-view.js";
import { projectParams } from "./schemas.js";

/**
 * `POST /projects/:id/archive` and `/unarchive`: Owner (GitLab's `archive_project`), idempotent,
 * 201 with the project as it now is. An archived project's repository refuses pushes.
 */
export function archivingEndpoint(archived: boolean): Endpoint {
  return defineEndpoint(
    { summary: archived ? "Archive a project" : "Unarchive a project", access: "write", status: 201, params: projectParams },
    async ({ c, principal, params }) => {
      const { project, level } = await visibleProject(principal, params.id);
      if (level < AccessLevel.owner) throw forbidden();
      return projectDetailView(principal, await setArchived(project, archived), baseUrl(c));
    },
  );
}

export const endpoint = archivingEndpoint(true);
export const handler = lambda(endpoint);
