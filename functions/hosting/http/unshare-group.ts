import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { idOrPath, positiveInt } from "../../platform/http/params.js";
import { visibleGroup } from "../domain/groups.js";
import { unshareGroup } from "../domain/group-shares.js";

/** GitLab's `DELETE /groups/:id/share/:group_id`: Owner; 204. */
export const endpoint = defineEndpoint(
  { summary: "Stop sharing a group with another group", access: "write", params: z.object({ id: idOrPath(), group_id: positiveInt() }) },
  async ({ c, principal, params }) => {
    await unshareGroup(await visibleGroup(principal, params.id), params.group_id);
    return c.body(null, 204);
  },
);
export const handler = lambda(endpoint);
