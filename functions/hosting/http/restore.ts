/**
 * GitLab's `POST /projects/:id/restore` and `POST /groups/:id/restore` (Premium: restoring what
 * delayed deletion marked). Deletion here is never delayed: a project is deleted at once, and a
 * group with contents is marked only while its contents are being deleted (the `group-deletions`
 * job), which cannot be undone. So, after GitLab's checks (the container's Owners, 403 below, 404
 * for whoever cannot see it), the answer is GitLab's 400 for a project or group not marked for
 * deletion, and for a group being deleted, GitLab's `Group deletion is in progress`.
 */
import { defineEndpoint, type Endpoint } from "../../platform/http/endpoint.js";
import { ApiError, forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { visibleGroup } from "../domain/groups.js";
import { visibleProject } from "../domain/projects.js";
import { groupParams, projectParams } from "./schemas.js";

const refused = (message: string) => new ApiError(400, { message });

export const restoreProject = (): Endpoint =>
  defineEndpoint({ summary: "Restore a project marked for deletion", access: "write", status: 201, params: projectParams }, async ({ principal, params }) => {
    const { level } = await visibleProject(principal, params.id);
    if (level < AccessLevel.owner) throw forbidden();
    throw refused("Project has not been marked for deletion");
  });

export const restoreGroup = (): Endpoint =>
  defineEndpoint({ summary: "Restore a group marked for deletion", access: "write", status: 201, params: groupParams }, async ({ principal, params }) => {
    const { group, level } = await visibleGroup(principal, params.id);
    if (level < AccessLevel.owner) throw forbidden();
    throw refused(group.markedForDeletionOn ? "Group deletion is in progress" : "Group has not been marked for deletion");
  });
