import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { idOrPath, positiveInt } from "../../platform/http/params.js";
import { visibleProject } from "../domain/projects.js";
import { unshareProject } from "../domain/project-shares.js";

/** GitLab's `DELETE /projects/:id/share/:group_id`: Maintainer+; 204. */
export const endpoint = defineEndpoint(
  { summary: "Stop sharing a project with a group", access: "write", params: z.object({ id: idOrPath(), group_id: positiveInt() }) },
  async ({ c, principal, params }) => {
    await unshareProject(await visibleProject(principal, params.id), params.group_id);
    return c.body(null, 204);
  },
);
export const handler = lambda(endpoint);
