/** Pages need a signed-in browser: anonymous visitors go to the sign-in page and come back. */
import type { Context } from "hono";
import type { Principal } from "../../identity/domain/auth.js";

export function signInRedirect(c: Context): Response {
  const url = new URL(c.req.url);
  return c.redirect(`/users/sign_in?return_to=${encodeURIComponent(url.pathname + url.search)}`, 302);
}

export function pageIdentity(principal: Principal) {
  return { csrfToken: principal.session?.csrfToken, username: principal.user.username };
}
