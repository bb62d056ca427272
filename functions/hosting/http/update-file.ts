import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { commitOneFile, fileParams, writeFileBody } from "./repository-file.js";

/** GitLab's "Update existing file in repository"; a stale `last_commit_id` is refused with 400. */
export const endpoint = defineEndpoint(
  { summary: "Update a file", access: "write", params: fileParams, body: writeFileBody },
  ({ principal, params, body }) => commitOneFile(principal, params, body, "update"),
);
export const handler = lambda(endpoint);
