import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { idOrPath } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { notFound } from "../../platform/http/errors.js";
import { groupDetailView, resolveGroup } from "../domain/groups.js";
import { sharedWithGroupsView } from "../domain/group-shares.js";
import { groupNamespace } from "../domain/namespaces.js";
import { transferProject } from "../domain/project-transfer.js";
import { resolveProject } from "../domain/projects.js";

/**
 * GitLab's `POST /groups/:id/projects/:project_id` (python-gitlab's `group.transfer_project`):
 * administrators move a project (id or full path) into the group, answering 201 with the group.
 * The move is `PUT /projects/:id/transfer`'s: the repository stays, paths change, 409 while a
 * storage move holds it; a refusal is GitLab's `400 Failed to transfer project …`.
 */
export const endpoint = defineEndpoint(
  { summary: "Transfer a project into a group (admin)", access: "write", admin: true, status: 201, params: z.object({ id: idOrPath(), project_id: idOrPath() }) },
  async ({ c, principal, params }) => {
    const group = await resolveGroup(params.id);
    if (!group) throw notFound("Group");
    const project = await resolveProject(params.project_id);
    if (!project) throw notFound("Project");
    await transferProject(project, groupNamespace(group), group.visibility);
    return groupDetailView(group, baseUrl(c), await sharedWithGroupsView(principal, group));
  },
);
export const handler = lambda(endpoint);
