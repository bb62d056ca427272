import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { notFound, validationError } from "../../platform/http/errors.js";
import { baseUrl } from "../../platform/http/urls.js";
import { findUser, adminUser, PROFILE_FIELDS, type ProfileField } from "../domain/users.js";
import { readAvatar, saveAvatar } from "../domain/avatars.js";
import { setAvatar, updateUser } from "../domain/user-admin.js";
import { userEmail, userParams } from "./user-schemas.js";
import { renamePersonalNamespace } from "../../hosting/domain/personal-projects.js";

const text = (max: number) => z.optional(z.string().check(z.maxLength(max)));
const profileShape = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, text(f === "bio" || f === "note" ? 255 : 500)])) as Record<ProfileField, ReturnType<typeof text>>;

/**
 * Admin only, as GitLab's `PUT /users/:id`: the profile fields, name, e-mail, admin flag,
 * `can_create_group`, `private_profile`, an avatar; only the fields given change. The username may
 * be sent (python-gitlab always sends it) but not changed: it names the user's namespace and the
 * paths of its projects. The password is accepted and ignored, as on creation.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Modify a user (admin)",
    access: "write",
    admin: true,
    params: userParams,
    body: z.object({
      ...profileShape,
      name: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
      username: z.optional(z.string().check(z.maxLength(255))),
      email: z.optional(userEmail()),
      admin: z.optional(bool()),
      can_create_group: z.optional(bool()),
      private_profile: z.optional(bool()),
      password: z.optional(z.string().check(z.maxLength(128))),
      skip_reconfirmation: z.optional(bool()),
      avatar: z.optional(z.file()),
    }),
  },
  async ({ c, params, body }) => {
    let user = await findUser(params.user_id);
    if (!user) throw notFound("User");
    if (body.username !== undefined && body.username !== user.username) throw validationError({ username: ["cannot be changed: it names the user's namespace"] });
    const avatar = body.avatar ? await readAvatar(body.avatar) : undefined;
    const profile = Object.fromEntries(PROFILE_FIELDS.filter((f) => body[f] !== undefined).map((f) => [f, body[f]!]));
    const before = user.name;
    user = await updateUser(user, { name: body.name, email: body.email, admin: body.admin, canCreateGroup: body.can_create_group, privateProfile: body.private_profile, profile });
    if (user.name !== before) await renamePersonalNamespace(user);
    if (avatar) {
      await saveAvatar(user.id, avatar);
      user = await setAvatar(user, avatar.filename);
    }
    return adminUser(user, baseUrl(c));
  },
);
export const handler = lambda(endpoint);
