import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { groupParams } from "./schemas.js";
import { listAll, memberListQuery } from "./members.js";

/** Direct, inherited and shared-group members, one per user at its highest level (GitLab's `members/all`). */
export const endpoint = defineEndpoint(
  { summary: "List all group members, inherited and invited included", access: "read", params: groupParams, query: memberListQuery },
  ({ c, principal, params, query }) => listAll("group", c, principal, params.id, query),
);
export const handler = lambda(endpoint);
