import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { memberParams } from "./schemas.js";
import { getAll } from "./members.js";

/** One user's membership as `members/all` lists it: direct, inherited or through a share, at its highest level. */
export const endpoint = defineEndpoint(
  { summary: "One project member, inherited and invited included", access: "read", params: memberParams },
  ({ c, principal, params }) => getAll("project", c, principal, params.id, params.user_id),
);
export const handler = lambda(endpoint);
