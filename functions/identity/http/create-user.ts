import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { createUser, fullUser } from "../domain/users.js";

/**
 * Admin only. Passwords are accepted for client compatibility but not stored: this service signs in
 * with personal access tokens only.
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
      email: z.string().check(z.email(), z.maxLength(255)),
      admin: z.optional(bool()),
      password: z.optional(z.string().check(z.maxLength(128))),
      reset_password: z.optional(bool()),
      force_random_password: z.optional(bool()),
      skip_confirmation: z.optional(bool()),
    }),
  },
  async ({ c, body }) => {
    const user = await createUser({ username: body.username, name: body.name, email: body.email, admin: body.admin ?? false });
    return fullUser(user, baseUrl(c));
  },
);
export const handler = lambda(endpoint);
