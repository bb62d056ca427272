import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { visibleGroup } from "../domain/groups.js";
import { groupParams } from "./schemas.js";
import { invitedGroups, invitedGroupsQuery } from "./invited-groups.js";

/** GitLab's `GET /groups/:id/invited_groups`: the groups it (direct) or its ancestors (inherited) are shared with. */
export const endpoint = defineEndpoint(
  { summary: "List the groups a group is shared with", access: "public", params: groupParams, query: invitedGroupsQuery },
  async ({ c, principal, params, query }) => {
    const { group } = await visibleGroup(principal, params.id);
    return invitedGroups(c, principal, query, group, group.ancestorIds);
  },
);
export const handler = lambda(endpoint);
