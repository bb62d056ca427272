import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { projectParams } from "./schemas.js";
import { request } from "./access-requests.js";

/** The caller asks to join a project it can see and has no access to. */
export const endpoint = defineEndpoint(
  { summary: "Request access to a project", access: "write", status: 201, params: projectParams },
  ({ c, principal, params }) => request("project", c, principal, params.id),
);
export const handler = lambda(endpoint);
