/**
 * The Hono application shell every route runs in, on Lambda and locally: request ids, an access log
 * line, security headers, a body-size limit and the one error policy. Routes are mounted by `mountRoute` (local server)
 * or `lambda()` (one route per function on API Gateway).
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { Hono as TinyHono } from "hono/tiny";
import { HTTPException } from "hono/http-exception";
import { bodyLimit } from "hono/body-limit";
import { randomUUID } from "node:crypto";
import { $ZodError } from "zod/v4/core";
import { ApiError, INSUFFICIENT_STORAGE } from "./errors.js";
import { isOutOfSpace } from "../out-of-space.js";
import { log, withRequestId, describeError } from "../log.js";
import { translateZodError } from "./validation.js";
import { securityHeaders } from "./security-headers.js";

export type Surface = "gitlab" | "siu" | "sentry";

export interface ErrorRenderer {
  /** Body and status for a failure that carries no surface-specific body of its own. */
  render(status: number, message: string): { status: number; body: unknown };
  /** Headers every failure of the surface carries, as its successes do (SIU's `API-Version`). */
  headers?(path: string): Record<string, string>;
  /** The surface's own request body limit, when it differs from `FORGELINE_MAX_BODY_BYTES`. */
  maxBodyBytes?: number;
}

const renderers: Record<Surface, ErrorRenderer> = {
  gitlab: {
    render: (status, message) => ({ status, body: { message } }),
  },
  siu: {
    render: (status, message) => ({ status, body: { error: status, mensaje: message, descripcion: message } }),
  },
  sentry: {
    render: (status, message) => ({ status, body: { detail: message } }),
  },
};

export function registerRenderer(surface: Surface, renderer: ErrorRenderer): void {
  renderers[surface] = renderer;
}

export function surfaceOf(path: string): Surface {
  if (path === "/rest" || path.startsWith("/rest/")) return "siu";
  if (path.startsWith("/api/v4/error_tracking/collector") || path.startsWith("/api/0/")) return "sentry";
  return "gitlab";
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

export function maxBodyBytes(): number {
  return Number(process.env.FORGELINE_MAX_BODY_BYTES ?? 10 * 1024 * 1024);
}

function surfaceHeaders(c: Context, surface: Surface): void {
  for (const [k, v] of Object.entries(renderers[surface].headers?.(c.req.path) ?? {})) c.header(k, v);
}

/** A failure that carries no body of its own, in the surface's format (its headers already set). */
function renderStatus(c: Context, surface: Surface, code: number, message: string): Response {
  const { status, body } = renderers[surface].render(code, message);
  return c.json(body, status as 400);
}

export function renderError(c: Context, err: unknown): Response {
  const surface = surfaceOf(c.req.path);
  surfaceHeaders(c, surface);
  if (err instanceof ApiError) {
    const body = err.body;
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return typeof body === "string" ? c.text(body, err.status as 400) : c.json(body, err.status as 400);
  }
  if (err instanceof $ZodError) return renderError(c, translateZodError(err, surface));
  if (err instanceof HTTPException) return renderStatus(c, surface, err.status, err.status === 413 ? TOO_LARGE : err.message || `${err.status}`);
  // Nothing to log beyond the access line's 507: the disk is full, nothing in the code is wrong.
  if (isOutOfSpace(err)) return renderStatus(c, surface, 507, INSUFFICIENT_STORAGE);
  log.error("unhandled error", { path: c.req.path, ...describeError(err) });
  return renderStatus(c, surface, 500, "500 Internal Server Error");
}

/**
 * A failure in the request's own surface format, with the surface's headers (a 413: GitLab's
 * `{"message":"413 Request Entity Too Large"}`, or SIU's envelope).
 */
const renderFor = (c: Context, code: number, message: string): Response => renderError(c, new HTTPException(code as 400, { message }));

const TOO_LARGE = "413 Request Entity Too Large";

/**
 * Hono's `bodyLimit` reads `c.req.raw.body` first, which on Node builds the whole fetch Request (its
 * headers and a stream over the socket) for every request, a GET included. A GET or HEAD has no
 * body, and a declared Content-Length settles the rest from the headers; only a chunked body is
 * counted as it is read.
 */
function limitBody(maxSize: number): MiddlewareHandler {
  const counting = bodyLimit({ maxSize, onError: (c) => renderFor(c, 413, TOO_LARGE) });
  return (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const declared = c.req.header("content-length");
    if (declared !== undefined && c.req.header("transfer-encoding") === undefined) return Number.parseInt(declared, 10) > maxSize ? Promise.resolve(renderFor(c, 413, TOO_LARGE)) : next();
    return counting(c, next);
  };
}

/**
 * `app` defaults to Hono's smallest preset (`hono/tiny`, one regular expression per route), which is
 * what a Lambda needs: it serves one route, and its bundle then leaves out the RegExp and Trie routers
 * the default preset builds to pick fast among hundreds (6 KB of every function). The local server,
 * which mounts every route on one app, passes the default preset's app instead.
 */
export function createApp(app: Hono = new TinyHono()): Hono {
  app.use("*", async (c, next) => {
    const offered = c.req.header("x-request-id");
    const lambdaEvent = (c.env as { event?: { requestContext?: { requestId?: string } } } | undefined)?.event;
    const requestId =
      offered && REQUEST_ID.test(offered) ? offered : (lambdaEvent?.requestContext?.requestId ?? randomUUID());
    c.header("X-Request-Id", requestId);
    const started = performance.now();
    await withRequestId(requestId, async () => {
      await next();
      // Only the path: query strings may carry `private_token` or `sentry_key`.
      log.info("request", {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    });
  });
  app.use("*", securityHeaders);
  // The Sentry collector applies its own limits (20 MiB compressed, 1 MiB per event) while it streams
  // the body, and answers them with Sentry's headers; everything else but git gets the platform limit.
  const platformLimit = limitBody(maxBodyBytes());
  const surfaceLimits = new Map<number, MiddlewareHandler>();
  const limitFor = (c: Context) => {
    const own = renderers[surfaceOf(c.req.path)].maxBodyBytes;
    if (own === undefined) return platformLimit;
    let limit = surfaceLimits.get(own);
    if (!limit) surfaceLimits.set(own, (limit = limitBody(own)));
    return limit;
  };
  // Git pushes stream packs of any size to `git http-backend`, which bounds what it buffers itself.
  app.use("*", (c, next) => (/^\/api\/v4\/error_tracking\/collector|\.git\/git-/.test(c.req.path) ? next() : limitFor(c)(c, next)));
  app.onError((err, c) => renderError(c, err));
  app.notFound((c) => {
    if (surfaceOf(c.req.path) === "gitlab") return c.json({ error: "404 Not Found" }, 404);
    return renderFor(c, 404, "Not Found");
  });
  return app;
}
