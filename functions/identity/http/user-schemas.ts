/** What the user endpoints share: zod schemas, and the shape of an administrator's action on a user. */
import * as z from "zod/mini";
import { positiveInt } from "../../platform/http/params.js";
import { defineEndpoint, type Endpoint } from "../../platform/http/endpoint.js";
import { notFound } from "../../platform/http/errors.js";
import { findUser, type User } from "../domain/users.js";

/**
 * GitLab's e-mail rule (Devise's `email_regexp`): something, one `@`, something, no spaces. It
 * accepts what GitLab accepts (`user@email.com.2`), unlike stricter RFC-style checks.
 */
export const userEmail = () => z.string().check(z.maxLength(255), z.regex(/^[^@\s]+@[^@\s]+$/));

export const userParams = z.object({ user_id: positiveInt() });

/**
 * `POST /users/:user_id/<action>`: administrators only, 201, `404 User Not Found` for an unknown
 * user; otherwise what `act` answers (block, ban, deactivate, approve… in `user-state.ts` and
 * `user-moderation.ts`).
 */
export function userAction(summary: string, act: (user: User) => Promise<unknown>): Endpoint {
  return defineEndpoint({ summary, access: "write", admin: true, status: 201, params: userParams }, async ({ params }) => {
    const user = await findUser(params.user_id);
    if (!user) throw notFound("User");
    return act(user);
  });
}
