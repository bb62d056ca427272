import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import { publicUrl } from "../../platform/http/pagination.js";

/**
 * HttpOnly, SameSite=Strict, and Secure when the client reached us over HTTPS: what a proxy or API
 * Gateway says (`X-Forwarded-Proto`) before the request's own URL, which on Lambda is always https.
 */
export function setStrictCookie(c: Context, name: string, value: string, maxAgeSeconds: number): void {
  const https = publicUrl(c).protocol === "https:";
  setCookie(c, name, value, { httpOnly: true, sameSite: "Strict", secure: https, path: "/", maxAge: maxAgeSeconds });
}
