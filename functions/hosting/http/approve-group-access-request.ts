import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { memberParams } from "./schemas.js";
import { approve, approveBody } from "./access-requests.js";

/** The request becomes a direct membership (`access_level`, default Developer); 201 with the member. */
export const endpoint = defineEndpoint(
  { summary: "Approve a request to join a group", access: "write", status: 201, params: memberParams, body: approveBody },
  ({ c, principal, params, body }) => approve("group", c, principal, params.id, params.user_id, body),
);
export const handler = lambda(endpoint);
