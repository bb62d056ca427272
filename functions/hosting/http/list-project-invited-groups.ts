import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { visibleProject } from "../domain/projects.js";
import { projectParams } from "./schemas.js";
import { invitedGroups, invitedGroupsQuery } from "./invited-groups.js";

/** GitLab's `GET /projects/:id/invited_groups`: the groups the project (direct) or its groups (inherited) are shared with. */
export const endpoint = defineEndpoint(
  { summary: "List the groups a project is shared with", access: "public", params: projectParams, query: invitedGroupsQuery },
  async ({ c, principal, params, query }) => {
    const { project } = await visibleProject(principal, params.id);
    return invitedGroups(c, principal, query, project, project.namespace.groupIds);
  },
);
export const handler = lambda(endpoint);
