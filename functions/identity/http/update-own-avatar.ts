import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { avatarUrl } from "../domain/users.js";
import { readAvatar, saveAvatar } from "../domain/avatars.js";
import { setAvatar } from "../domain/user-admin.js";

/**
 * GitLab's `PUT /user/avatar`: the caller uploads its own avatar (multipart `avatar`, GitLab's
 * 200 KiB limit and image formats, as `PUT /users/:id` takes it) and gets its new `avatar_url`.
 */
export const endpoint = defineEndpoint(
  { summary: "Upload an avatar for yourself", access: "write", body: z.object({ avatar: z.file() }) },
  async ({ c, principal, body }) => {
    const avatar = await readAvatar(body.avatar);
    await saveAvatar(principal.user.id, avatar);
    const user = await setAvatar(principal.user, avatar.filename);
    return { avatar_url: avatarUrl(user, baseUrl(c)) };
  },
);
export const handler = lambda(endpoint);
