import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { projectParams } from "./schemas.js";
import { accessRequestListQuery, list } from "./access-requests.js";

/** The pending requests to join the project, for those who manage its members. */
export const endpoint = defineEndpoint(
  { summary: "List the access requests of a project", access: "read", params: projectParams, query: accessRequestListQuery },
  ({ c, principal, params, query }) => list("project", c, principal, params.id, query),
);
export const handler = lambda(endpoint);
