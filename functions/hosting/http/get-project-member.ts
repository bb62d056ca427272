import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { memberParams } from "./schemas.js";
import { get } from "./members.js";

/** A direct member of a project (python-gitlab's `project.members.get(id)`); GitLab's `404 Not found` otherwise. */
export const endpoint = defineEndpoint(
  { summary: "One project member", access: "read", params: memberParams },
  ({ c, principal, params }) => get("project", c, principal, params.id, params.user_id),
);
export const handler = lambda(endpoint);
