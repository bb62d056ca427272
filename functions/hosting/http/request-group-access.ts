import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { groupParams } from "./schemas.js";
import { request } from "./access-requests.js";

/** The caller asks to join a group it can see and has no access to. */
export const endpoint = defineEndpoint(
  { summary: "Request access to a group", access: "write", status: 201, params: groupParams },
  ({ c, principal, params }) => request("group", c, principal, params.id),
);
export const handler = lambda(endpoint);
