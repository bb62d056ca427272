/**
 * Who is calling: a personal access token from `Private-Token` (any case), `Authorization: Bearer`, or
 * the `private_token` query parameter (GitLab accepts all three), or else a browser session cookie.
 * Admins whose token has the `sudo` scope may act as another user with the `Sudo` header. A request
 * authenticated by the session cookie that changes state must carry the session's CSRF token
 * (`X-CSRF-Token` header); a token-authenticated request needs none (a page cannot forge headers).
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { ApiError, unauthorized } from "../../platform/http/errors.js";
import { findToken, hashToken, isExpired, isUsable, recordTokenUse, type Scope, type TokenRecord } from "./tokens.js";
import { principalCache, principalCacheMs } from "./principal-cache.js";
import { findUser, findUserByUsername, type User } from "./users.js";
import { findSession, sameSecret, SESSION_COOKIE } from "./sessions.js";
import { getItem } from "../../platform/db/table.js";
import { tokenKey } from "./keys.js";
import { ensureBootstrapAdmin } from "./bootstrap.js";
import { resources } from "../../platform/resources.js";

export interface Principal {
  user: User;
  scopes: Scope[];
  token: TokenRecord;
  /** Present when the request authenticated with a browser session. */
  session?: { csrfToken: string };
}

export function presentedToken(c: Context): string | undefined {
  const header = c.req.header("private-token");
  if (header) return header.trim();
  const authz = c.req.header("authorization");
  if (authz && /^bearer\s+/i.test(authz)) return authz.replace(/^bearer\s+/i, "").trim();
  return c.req.query("private_token") ?? undefined;
}

async function lookup(plain: string): Promise<Principal> {
  try {
    return await principalForTokenHash(hashToken(plain), () => findToken(plain));
  } catch (err) {
    // An empty instance on AWS has no admin yet: the first request that presents the configured
    // bootstrap token creates `root` with exactly that token (once; later it is an ordinary token).
    const configured = resources.bootstrapAdminToken();
    if (!configured || !sameSecret(plain, configured)) throw err;
    if (!(await ensureBootstrapAdmin(plain)).created) throw err;
    return principalForTokenHash(hashToken(plain), () => findToken(plain));
  }
}

/** The principal of a token (by hash), through the short-lived cache. */
export async function principalForTokenHash(hash: string, load: () => Promise<TokenRecord | undefined>): Promise<Principal> {
  const now = Date.now();
  const hit = principalCache.get(hash) as { principal: Principal; until: number } | undefined;
  if (hit && hit.until > now && isUsable(hit.principal.token)) return hit.principal;
  const token = await load();
  if (!token) throw unauthorized();
  if (token.revoked) throw invalidToken("Token was revoked. You have to re-authorize from the user.");
  if (isExpired(token)) throw invalidToken("Token is expired. You can either do re-authorization or token refresh.");
  const user = await findUser(token.userId);
  if (!user || user.state !== "active") throw unauthorized();
  const principal: Principal = { user, scopes: token.scopes, token };
  if (principalCacheMs() > 0) {
    if (principalCache.size > 10_000) principalCache.clear();
    principalCache.set(hash, { principal, until: now + principalCacheMs() });
  }
  return principal;
}

export async function authenticate(c: Context): Promise<Principal | undefined> {
  const cached = c.get("principal" as never) as Principal | undefined;
  if (cached) return cached;
  const plain = presentedToken(c);
  if (plain === undefined) return sessionPrincipal(c);
  if (plain.length < 8 || plain.length > 256) throw unauthorized();
  let principal = await lookup(plain);
  await recordTokenUse(principal.token);
  // GitLab takes `sudo` as a parameter or a header, the parameter first.
  const sudo = c.req.query("sudo") ?? c.req.header("sudo");
  if (sudo !== undefined) principal = await impersonate(principal, sudo);
  c.set("principal" as never, principal as never);
  return principal;
}

/** GitLab's `sudo!`, its checks in its order: admin, then a token (not a session), then the scope. */
async function impersonate(principal: Principal, who: string): Promise<Principal> {
  if (!principal.user.admin) throw new ApiError(403, { message: "403 Forbidden - Must be admin to use sudo" });
  if (!principal.scopes.includes("sudo")) throw insufficientScope("sudo");
  const target = /^\d+$/.test(who) ? await findUser(Number(who)) : await findUserByUsername(who);
  if (!target) throw new ApiError(404, { message: `404 User with ID or username '${who}' Not Found` });
  return { ...principal, user: target };
}

/** GitLab's answer to a revoked or expired token (OAuth 2 bearer-token error, RFC 6750). */
function invalidToken(description: string): ApiError {
  return new ApiError(401, { error: "invalid_token", error_description: description }, { "WWW-Authenticate": `Bearer realm="", error="invalid_token", error_description="${description}"` });
}

/** GitLab's answer to a token whose scopes do not cover the request. */
export function insufficientScope(scope: string): ApiError {
  return new ApiError(403, {
    error: "insufficient_scope",
    error_description: "The request requires higher privileges than provided by the access token.",
    scope,
  });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

async function sessionPrincipal(c: Context): Promise<Principal | undefined> {
  const id = getCookie(c, SESSION_COOKIE);
  if (!id) return undefined;
  const session = await findSession(id);
  if (!session) return undefined;
  const base = await principalForTokenHash(session.tokenHash, () => getItem<TokenRecord>(tokenKey(session.tokenHash).pk, "PAT", false)).catch(() => undefined);
  if (!base) return undefined;
  if (!SAFE_METHODS.has(c.req.method) && !sameSecret(await presentedCsrf(c), session.csrfToken)) {
    throw new ApiError(403, { message: "403 Forbidden - invalid CSRF token" });
  }
  const principal: Principal = { ...base, session: { csrfToken: session.csrfToken } };
  c.set("principal" as never, principal as never);
  return principal;
}

/** `X-CSRF-Token` from scripts, or the `authenticity_token` field of a plain HTML form post. */
async function presentedCsrf(c: Context): Promise<string | undefined> {
  const header = c.req.header("x-csrf-token");
  if (header) return header;
  if (!(c.req.header("content-type") ?? "").includes("application/x-www-form-urlencoded")) return undefined;
  const form = new URLSearchParams(await c.req.text());
  return form.get("authenticity_token") ?? undefined;
}
