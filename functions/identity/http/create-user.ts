import * as z from "zod";
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
      username: z.string().regex(/^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}$/),
      name: z.string().min(1).max(255),
      email: z.string().email().max(255),
      admin: bool().optional(),
      password: z.string().max(128).optional(),
      reset_password: bool().optional(),
      force_random_password: bool().optional(),
      skip_confirmation: bool().optional(),
    }),
  },
  async ({ c, body }) => {
    const user = await createUser({ username: body.username, name: body.name, email: body.email, admin: body.admin ?? false });
    return fullUser(user, baseUrl(c));
  },
);
export const handler = lambda(endpoint);
