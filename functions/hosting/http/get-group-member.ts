import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { memberParams } from "./schemas.js";
import { get } from "./members.js";

/** A direct member of a group; `404 Member Not Found` otherwise. */
export const endpoint = defineEndpoint(
  { summary: "One group member", access: "read", params: memberParams },
  ({ c, principal, params }) => get("group", c, principal, params.id, params.user_id),
);
export const handler = lambda(endpoint);
