import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { groupParams } from "./schemas.js";
import { list, memberListQuery } from "./members.js";

export const endpoint = defineEndpoint(
  { summary: "List group members", access: "read", params: groupParams, query: memberListQuery },
  ({ c, principal, params, query }) => list("group", c, principal, params.id, query),
);
export const handler = lambda(endpoint);
