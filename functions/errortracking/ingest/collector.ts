/**
 * The ingest function (a Lambda function URL; locally mounted on the same server): the Sentry
 * collector routes GitLab's DSNs lead to, `…/collector/api/:project_id/{store,envelope}` with or
 * without the trailing slash SDKs add. `:project_id` is an id or a URL-encoded full path.
 *
 * Answers: `200 {"id":"<event_id>"}` (never empty: some SDKs parse it), or a 4xx with
 * `{"detail": …}` and the same text in `X-Sentry-Error`. No input yields a 5xx: dependency failures
 * are 503 + Retry-After (nothing was acknowledged, the SDK may send again), and an unexpected
 * exception is logged (without its message, which could quote the body) and answered 400.
 */
import type { Context, Hono } from "hono";
import { handle } from "hono/aws-lambda";
import { createApp } from "../../platform/http/app.js";
import { log } from "../../platform/log.js";
import type { IncomingMessage } from "node:http";
import { nodeChunks, webChunks, type Chunks } from "./decode.js";
import type { Meter } from "./budget.js";
import { ingest, type Endpoint, type IngestOutcome } from "./pipeline.js";
import { refuse, Unavailable, type IngestFailure } from "./problem.js";

const BASE = "/api/v4/error_tracking/collector/api/:project_id";

/** Browser SDKs post cross-origin; these are the request headers Sentry permits (protocol C.2). */
const CORS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "X-Sentry-Error, X-Sentry-Rate-Limits, Retry-After",
};
const PREFLIGHT: Record<string, string> = {
  ...CORS,
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers":
    "x-sentry-auth, x-requested-with, x-forwarded-for, origin, referer, accept, authentication, authorization, content-encoding, transfer-encoding, content-type",
  "Access-Control-Max-Age": "3600",
};

/** Reasons may quote client text (an item type); a header value must be printable ASCII on one line. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, "?").slice(0, 200);

function failure(c: Context, error: IngestFailure): Response {
  const headers = { ...CORS, ...error.headers, "X-Sentry-Error": headerSafe(error.reason) };
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  return c.json({ detail: headers["X-Sentry-Error"] }, error.status);
}

/**
 * The raw body as a stream of chunks. On the local server the Node request is read directly while
 * it is untouched (never read, no reader attached: the platform's body-limit middleware skips the
 * collector), which skips building a web `Request` and its stream; Lambda events and in-process
 * requests go through the web Request. A declared length over the limit is refused unread.
 */
function readBody(c: Context, max: number, meter: Meter): Chunks {
  const declared = Number(c.req.header("content-length"));
  if (Number.isFinite(declared) && declared > max) throw refuse(413, `request body exceeds ${max} bytes`);
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && incoming.readable && !incoming.readableDidRead && incoming.readableFlowing === null) return nodeChunks(incoming, max, meter);
  return webChunks(c.req.raw.body, max, meter);
}

async function run(c: Context, endpoint: Endpoint): Promise<IngestOutcome> {
  try {
    return await ingest({
      endpoint,
      project: c.req.param("project_id") ?? "",
      query: (name) => c.req.query(name),
      header: (name) => c.req.header(name),
      body: (max, meter) => readBody(c, max, meter),
    });
  } catch (err) {
    if (err instanceof Unavailable) {
      log.warn("ingest dependency unavailable", { dependency: err.dependency, cause: (err.cause as Error | undefined)?.name });
      return { ok: false, error: { status: 503, reason: `${err.dependency} is unavailable, retry later`, headers: { "Retry-After": "5" } } };
    }
    const e = err instanceof Error ? err : new Error(String(err));
    log.error("ingest failed unexpectedly", { error: e.name, stack: e.stack?.split("\n").slice(1, 8).join("\n") });
    return { ok: false, error: { status: 400, reason: "the request could not be processed" } };
  }
}

async function collect(c: Context, endpoint: Endpoint): Promise<Response> {
  const outcome = await run(c, endpoint);
  if (!outcome.ok) return failure(c, outcome.error);
  for (const [k, v] of Object.entries(CORS)) c.header(k, v);
  return c.json({ id: outcome.id }, 200);
}

export function mount(app: Hono): void {
  for (const endpoint of ["store", "envelope"] as const) {
    for (const path of [`${BASE}/${endpoint}`, `${BASE}/${endpoint}/`]) {
      app.post(path, (c) => collect(c, endpoint));
      app.options(path, () => new Response(null, { status: 204, headers: PREFLIGHT }));
    }
  }
}

let lambdaHandler: ReturnType<typeof handle> | undefined;

/** Lambda entry (function URL, payload v2). The app is built on first use, once per instance. */
export const handler: ReturnType<typeof handle> = (event, context) => {
  if (!lambdaHandler) {
    const app = createApp();
    mount(app);
    lambdaHandler = handle(app);
  }
  return lambdaHandler(event, context);
};
