import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { groupParams } from "./schemas.js";
import { accessRequestListQuery, list } from "./access-requests.js";

/** The pending requests to join the group, for those who manage its members. */
export const endpoint = defineEndpoint(
  { summary: "List the access requests of a group", access: "read", params: groupParams, query: accessRequestListQuery },
  ({ c, principal, params, query }) => list("group", c, principal, params.id, query),
);
export const handler = lambda(endpoint);
