import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { createUser, adminUser } from "../domain/users.js";
import { readAvatar, saveAvatar } from "../domain/avatars.js";
import { setAvatar } from "../domain/user-admin.js";
import { userEmail } from "./user-schemas.js";

/**
 * Admin only. Passwords are accepted for client compatibility but not stored: this service signs in
 * with personal access tokens only. An `avatar` file (multipart) is checked and stored, then served
 * at the user's `avatar_url`.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Create a user",
    access: "write",
    admin: true,
    status: 201,
    body: z.object({
      username: z.string().check(z.regex(/^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}$/)),
      name: z.string().check(z.minLength(1), z.maxLength(255)),
      email: userEmail(),
      admin: z.optional(bool()),
      password: z.optional(z.string().check(z.maxLength(128))),
      reset_password: z.optional(bool()),
      force_random_password: z.optional(bool()),
      skip_confirmation: z.optional(bool()),
      avatar: z.optional(z.file()),
    }),
  },
  async ({ c, body }) => {
    const avatar = body.avatar ? await readAvatar(body.avatar) : undefined;
    let user = await createUser({ username: body.username, name: body.name, email: body.email, admin: body.admin ?? false });
    if (avatar) {
      await saveAvatar(user.id, avatar);
      user = await setAvatar(user, avatar.filename);
    }
    return adminUser(user, baseUrl(c));
  },
);
export const handler = lambda(endpoint);
