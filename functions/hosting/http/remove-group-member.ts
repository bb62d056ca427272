import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { memberParams } from "./schemas.js";
import { remove } from "./members.js";

/** Maintainer+ (or the member leaving); 204 as GitLab. */
export const endpoint = defineEndpoint(
  { summary: "Remove a group member", access: "write", params: memberParams },
  ({ c, principal, params }) => remove("group", c, principal, params.id, params.user_id),
);
export const handler = lambda(endpoint);
