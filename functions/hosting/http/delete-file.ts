import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { commitOneFile, deleteFileBody, fileParams } from "./repository-file.js";

/** GitLab's "Delete existing file in repository": 204 with no body, as GitLab answers. */
export const endpoint = defineEndpoint(
  { summary: "Delete a file", access: "write", params: fileParams, body: deleteFileBody },
  async ({ c, principal, params, body }) => {
    await commitOneFile(principal, params, body, "delete");
    return c.body(null, 204);
  },
);
export const handler = lambda(endpoint);
