import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { memberParams } from "./schemas.js";
import { deny } from "./access-requests.js";

/** Denied by those who manage the members, or withdrawn by the requester; 204. */
export const endpoint = defineEndpoint(
  { summary: "Deny a request to join a group", access: "write", params: memberParams },
  ({ c, principal, params }) => deny("group", c, principal, params.id, params.user_id),
);
export const handler = lambda(endpoint);
