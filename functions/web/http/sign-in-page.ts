import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { randomToken } from "../../identity/domain/sessions.js";
import { escapeHtml, page } from "../ui/layout.js";
import { setStrictCookie } from "./cookies.js";

export const LOGIN_CSRF_COOKIE = "_forgeline_login_csrf";

/** Sign-in with a personal access token. The form carries a CSRF token also set as a cookie (double submit). */
export const endpoint = defineEndpoint(
  { summary: "Sign-in page", access: "public", query: z.object({ return_to: z.optional(z.string().check(z.maxLength(2000))), error: z.optional(z.string().check(z.maxLength(200))) }) },
  async ({ c, query }) => {
    const csrf = randomToken(24);
    setStrictCookie(c, LOGIN_CSRF_COOKIE, csrf, 3600);
    const error = query.error ? `<p class="flash error" role="alert">${escapeHtml(query.error)}</p>` : "";
    return c.html(
      page({
        title: "Sign in",
        body: `<section class="card narrow">
<h1>Sign in</h1>
${error}
<form method="post" action="/users/sign_in">
  <input type="hidden" name="authenticity_token" value="${escapeHtml(csrf)}">
  <input type="hidden" name="return_to" value="${escapeHtml(query.return_to ?? "/")}">
  <label for="token">Personal access token</label>
  <input id="token" name="token" type="password" autocomplete="off" required autofocus>
  <p class="hint">A token with the <code>api</code> or <code>read_api</code> scope.</p>
  <button type="submit" class="primary">Sign in</button>
</form>
</section>`,
      }),
    );
  },
);
export const handler = lambda(endpoint);
