import * as z from "zod/mini";
import { getCookie } from "hono/cookie";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { findToken, hashToken, isUsable } from "../../identity/domain/tokens.js";
import { findUser } from "../../identity/domain/users.js";
import { changeState } from "../../identity/domain/user-admin.js";
import { createSession, sameSecret, SESSION_COOKIE } from "../../identity/domain/sessions.js";
import { LOGIN_CSRF_COOKIE } from "./sign-in-page.js";
import { setStrictCookie } from "./cookies.js";

/** Where `return_to` is resolved: any origin would do, only staying on it matters. */
const HERE = "http://return-to.invalid";

/**
 * Only same-site paths, so `return_to` cannot send a user elsewhere. It is read as a browser reads
 * the `Location` it becomes (which drops tabs and newlines, so `/\t/evil.example` would leave the
 * site), and sent in URL form, which a header can always carry.
 */
export function safeReturnTo(value: string | undefined): string {
  if (!value?.startsWith("/") || !URL.canParse(value, HERE)) return "/";
  const url = new URL(value, HERE);
  return url.origin === HERE ? `${url.pathname}${url.search}${url.hash}` : "/";
}

export const endpoint = defineEndpoint(
  {
    summary: "Sign in with a personal access token",
    access: "public",
    body: z.object({ token: z.string().check(z.maxLength(256)), authenticity_token: z.string().check(z.maxLength(200)), return_to: z.optional(z.string().check(z.maxLength(2000))) }),
  },
  async ({ c, body }) => {
    const back = (error: string) => c.redirect(`/users/sign_in?error=${encodeURIComponent(error)}&return_to=${encodeURIComponent(safeReturnTo(body.return_to))}`, 303);
    if (!sameSecret(body.authenticity_token, getCookie(c, LOGIN_CSRF_COOKIE))) return back("Your sign-in form expired. Please try again.");
    const token = await findToken(body.token.trim());
    let user = token && isUsable(token) ? await findUser(token.userId) : undefined;
    if (!token || !user || (user.state !== "active" && user.state !== "deactivated")) return back("Invalid token.");
    if (!token.scopes.includes("api") && !token.scopes.includes("read_api")) return back("The token needs the api or read_api scope.");
    // A deactivated user is reactivated by signing in, as in GitLab: by a sign-in that succeeds, so
    // only once the token passed every check (a refused one leaves the user deactivated).
    if (user.state === "deactivated") user = await changeState(user, ["deactivated"], "active");
    if (!user || user.state !== "active") return back("Invalid token.");
    const session = await createSession(hashToken(body.token.trim()), user.id);
    setStrictCookie(c, SESSION_COOKIE, session.id, 8 * 3600);
    setStrictCookie(c, LOGIN_CSRF_COOKIE, "", 0);
    return c.redirect(safeReturnTo(body.return_to), 303);
  },
);
export const handler = lambda(endpoint);
