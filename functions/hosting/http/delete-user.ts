import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, positiveInt } from "../../platform/http/params.js";
import { notFound } from "../../platform/http/errors.js";
import { withReservedSpace } from "../../platform/space-reserve.js";
import { findUser } from "../../identity/domain/users.js";
import { removeUser } from "../domain/user-removal.js";

/**
 * Admin only; 204 as GitLab. `hard_delete` (query or body) also removes the groups the user is the
 * sole Owner of; without it such a user answers 409. The removal is done before the answer (GitLab
 * schedules it), so a listing right after no longer shows the user.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Delete a user (admin)",
    access: "write",
    admin: true,
    params: z.object({ user_id: positiveInt() }),
    body: z.object({ hard_delete: z.optional(bool()) }),
  },
  async ({ c, params, body }) => {
    const user = await findUser(params.user_id);
    if (!user) throw notFound("User");
    await withReservedSpace(() => removeUser(user, { hardDelete: body.hard_delete ?? false })); // how room is made: with the space reserve
    return c.body(null, 204);
  },
);
export const handler = lambda(endpoint);
