import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { memberParams } from "./schemas.js";
import { update, updateMemberBody } from "./members.js";

/** Maintainer+; nobody sets a level above their own or changes a member above them, only Owners grant Owner. */
export const endpoint = defineEndpoint(
  { summary: "Change a project member's level or expiry", access: "write", params: memberParams, body: updateMemberBody },
  ({ c, principal, params, body }) => update("project", c, principal, params.id, params.user_id, body),
);
export const handler = lambda(endpoint);
