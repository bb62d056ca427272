import * as z from "zod/mini";
import { getCookie } from "hono/cookie";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { endSession, findSession, sameSecret, SESSION_COOKIE } from "../../identity/domain/sessions.js";
import { setStrictCookie } from "./cookies.js";

/** A form post; the CSRF token travels as `authenticity_token`, as in GitLab's forms. */
export const endpoint = defineEndpoint(
  { summary: "Sign out", access: "public", body: z.object({ authenticity_token: z.string().check(z.maxLength(200)) }) },
  async ({ c, body }) => {
    const id = getCookie(c, SESSION_COOKIE);
    const session = id ? await findSession(id) : undefined;
    if (id && session) {
      if (!sameSecret(body.authenticity_token, session.csrfToken)) return c.json({ message: "403 Forbidden - invalid CSRF token" }, 403);
      await endSession(id);
    }
    setStrictCookie(c, SESSION_COOKIE, "", 0);
    return c.redirect("/users/sign_in", 303);
  },
);
export const handler = lambda(endpoint);
