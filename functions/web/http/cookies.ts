import type { Context } from "hono";
import { setCookie } from "hono/cookie";

/** HttpOnly, SameSite=Strict, and Secure when the request came over HTTPS (directly or via a proxy). */
export function setStrictCookie(c: Context, name: string, value: string, maxAgeSeconds: number): void {
  const https = new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto") === "https";
  setCookie(c, name, value, { httpOnly: true, sameSite: "Strict", secure: https, path: "/", maxAge: maxAgeSeconds });
}
