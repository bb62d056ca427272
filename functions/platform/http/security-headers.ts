/**
 * Response headers that protect the pages and the API in a browser. Every response says `nosniff`
 * (a JSON body must never be run as a script or rendered as HTML); every HTML page also gets a
 * Content-Security-Policy without inline script, is refused in frames (CSP `frame-ancestors` and
 * the older `X-Frame-Options`, so the Resolve/Ignore buttons and the settings form cannot be
 * clickjacked) and sends only its origin to other sites.
 */
import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";

/**
 * The pages' policy: their own scripts and stylesheets only. A page with an inline `<style>` names
 * it here, by hash, rather than allowing inline styles wholesale. A page whose script library sets
 * `style` attributes as it renders (Swagger UI) can only allow inline styles (`styleAttributes`);
 * scripts stay its own either way.
 */
export function contentSecurityPolicy(opts: { inlineStyles?: readonly string[]; styleAttributes?: boolean } = {}): string {
  const styleHashes = (opts.inlineStyles ?? []).map((css) => `'sha256-${createHash("sha256").update(css).digest("base64")}'`);
  const styles = opts.styleAttributes ? ["'self'", "'unsafe-inline'"] : ["'self'", ...styleHashes];
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styles.join(" ")}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const PAGE_POLICY = contentSecurityPolicy();

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  // In place: the responses built here have mutable headers, and copying each one (what `c.header`
  // does once a response is final) would cost every request. A frozen one is copied after all.
  // HEAD is the exception: Hono answers it with `new Response(null, res)`, and the Node adapter's
  // light Response then keeps the headers it was built with, so an in-place change would be lost.
  const inPlace = c.req.method !== "HEAD";
  const set = (name: string, value: string) => {
    if (inPlace) {
      try {
        c.res.headers.set(name, value);
        return;
      } catch {
        // frozen headers: copied below
      }
    }
    c.header(name, value);
  };
  set("X-Content-Type-Options", "nosniff");
  if (!/^text\/html/i.test(c.res.headers.get("content-type") ?? "")) return;
  // A page that needs more (an inline style's hash) has set its own policy.
  if (!c.res.headers.has("Content-Security-Policy")) set("Content-Security-Policy", PAGE_POLICY);
  set("X-Frame-Options", "DENY");
  set("Referrer-Policy", "strict-origin-when-cross-origin");
};
