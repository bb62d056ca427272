import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { unprotect } from "../domain/protected-ref-admin.js";
import { maintainedProject, protectedRefParams } from "./protected-ref-params.js";

/** GitLab's "Unprotect repository tags" (Maintainer+); `404 Not found` for a name that is not protected. 204. */
export const endpoint = defineEndpoint({ summary: "Unprotect a repository tag", access: "write", params: protectedRefParams }, async ({ c, principal, params }) => {
  const { project } = await maintainedProject(principal, params.id);
  await unprotect(project, "tag", params.name);
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
