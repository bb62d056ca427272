import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { groupParams } from "./schemas.js";
import { add, addMemberBody } from "./members.js";

/** Maintainer+; nobody grants a level above their own, only Owners grant Owner. */
export const endpoint = defineEndpoint(
  { summary: "Add a group member", access: "write", status: 201, params: groupParams, body: addMemberBody },
  ({ c, principal, params, body }) => add("group", c, principal, params.id, body),
);
export const handler = lambda(endpoint);
