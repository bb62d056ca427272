import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { visibleProject } from "../domain/projects.js";
import { projectParams } from "./schemas.js";

/**
 * Administrators only, GitLab's `GET /projects/:id/storage`: where the project's repository lives —
 * its storage and its hashed disk path (GitLab's `disk_path` has no `.git` suffix).
 */
export const endpoint = defineEndpoint(
  { summary: "Get the path to a project's repository storage (admin)", access: "read", admin: true, params: projectParams },
  async ({ principal, params }) => {
    const { project } = await visibleProject(principal, params.id);
    return {
      project_id: project.id,
      disk_path: project.relativePath.replace(/\.git$/, ""),
      created_at: project.createdAt,
      repository_storage: project.storage,
    };
  },
);
export const handler = lambda(endpoint);
