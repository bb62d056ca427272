import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { positiveInt } from "../../platform/http/params.js";
import { notFound } from "../../platform/http/errors.js";
import { findUser } from "../domain/users.js";
import { loadAvatar } from "../domain/avatars.js";

/** A user's uploaded avatar at GitLab's path (`avatar_url`); public, as GitLab serves avatars. */
export const endpoint = defineEndpoint(
  {
    summary: "A user's avatar",
    access: "public",
    params: z.object({ user_id: positiveInt(), filename: z.string().check(z.maxLength(64)) }),
  },
  async ({ c, params }) => {
    const user = await findUser(params.user_id);
    const avatar = user?.avatar?.filename === params.filename ? await loadAvatar(user.id) : undefined;
    if (!avatar) throw notFound();
    return c.body(new Uint8Array(avatar.data), 200, { "Content-Type": avatar.contentType, "Cache-Control": "public, max-age=300" });
  },
);
export const handler = lambda(endpoint);
