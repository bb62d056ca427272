import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { commitOneFile, fileParams, writeFileBody } from "./repository-file.js";

/** GitLab's "Create new file in repository": one commit on `branch` (from `start_branch` when new). */
export const endpoint = defineEndpoint(
  { summary: "Create a file", access: "write", status: 201, params: fileParams, body: writeFileBody },
  ({ principal, params, body }) => commitOneFile(principal, params, body, "create"),
);
export const handler = lambda(endpoint);
