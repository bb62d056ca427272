import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { projectParams } from "./schemas.js";
import { list, memberListQuery } from "./members.js";

export const endpoint = defineEndpoint(
  { summary: "List project members", access: "read", params: projectParams, query: memberListQuery },
  ({ c, principal, params, query }) => list("project", c, principal, params.id, query),
);
export const handler = lambda(endpoint);
