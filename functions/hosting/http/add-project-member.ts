import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { projectParams } from "./schemas.js";
import { add, addMemberBody } from "./members.js";

/** Maintainer+; nobody grants a level above their own, only Owners grant Owner. */
export const endpoint = defineEndpoint(
  { summary: "Add a project member", access: "write", status: 201, params: projectParams, body: addMemberBody },
  ({ c, principal, params, body }) => add("project", c, principal, params.id, body),
);
export const handler = lambda(endpoint);
