/**
 * Who is calling: a personal access token from `Private-Token` (any case), `Authorization: Bearer`, or
 * the `private_token` query parameter (GitLab accepts all three). Admins whose token has the `sudo`
 * scope may act as another user with the `Sudo` header.
 */
import type { Context } from "hono";
import { ApiError, unauthorized } from "../../platform/http/errors.js";
import { findToken, hashToken, isUsable, type Scope, type TokenRecord } from "./tokens.js";
import { principalCache, principalCacheMs } from "./principal-cache.js";
import { findUser, findUserByUsername, type User } from "./users.js";

export interface Principal {
  user: User;
  scopes: Scope[];
  token: TokenRecord;
}

export function presentedToken(c: Context): string | undefined {
  const header = c.req.header("private-token");
  if (header) return header.trim();
  const authz = c.req.header("authorization");
  if (authz && /^bearer\s+/i.test(authz)) return authz.replace(/^bearer\s+/i, "").trim();
  return c.req.query("private_token") ?? undefined;
}

async function lookup(plain: string): Promise<Principal> {
  const hash = hashToken(plain);
  const now = Date.now();
  const hit = principalCache.get(hash) as { principal: Principal; until: number } | undefined;
  if (hit && hit.until > now && isUsable(hit.principal.token)) return hit.principal;
  const token = await findToken(plain);
  if (!token || !isUsable(token)) throw unauthorized();
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
  if (plain === undefined) return undefined;
  if (plain.length < 8 || plain.length > 256) throw unauthorized();
  let principal = await lookup(plain);
  const sudo = c.req.header("sudo");
  if (sudo) principal = await impersonate(principal, sudo);
  c.set("principal" as never, principal as never);
  return principal;
}

async function impersonate(principal: Principal, who: string): Promise<Principal> {
  if (!principal.scopes.includes("sudo")) {
    throw new ApiError(403, {
      message: "403 Forbidden - Must be authenticated using an OAuth or Personal Access Token to use sudo",
    });
  }
  if (!principal.user.admin) throw new ApiError(403, { message: "403 Forbidden - Must be admin to use sudo" });
  const target = /^\d+$/.test(who) ? await findUser(Number(who)) : await findUserByUsername(who);
  if (!target) throw new ApiError(404, { message: `404 User with ID or username '${who}' Not Found` });
  return { ...principal, user: target };
}
