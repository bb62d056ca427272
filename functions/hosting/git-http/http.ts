/**
 * The Git HTTP function: GitLab's clone URLs (`…/<project>.git/info/refs`, `git-upload-pack`,
 * `git-receive-pack`; see `paths.ts`). Not an `/api/v4` route: on AWS it is its own Lambda behind a
 * function URL with response streaming (packs are larger than API Gateway carries); locally it is
 * mounted on the same server, like the ingest function.
 *
 * Credentials are HTTP Basic with any user name and a personal access token as the password
 * (`oauth2:<token>` too), as GitLab takes them from git; errors are `text/plain`, which git prints.
 */
import type { Context, Hono } from "hono";
import { streamHandle } from "hono/aws-lambda";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import * as z from "zod/mini";
import { principalForTokenHash, type Principal } from "../../identity/domain/auth.js";
import { findToken, hashToken, recordTokenUse } from "../../identity/domain/tokens.js";
import { createApp } from "../../platform/http/app.js";
import { ApiError } from "../../platform/http/errors.js";
import { describeError, log } from "../../platform/log.js";
import { isOutOfSpace, STORAGE_FULL_MESSAGE } from "../../platform/out-of-space.js";
import { tokenUsableForGit } from "./access.js";
import { GIT_HTTP_PATHS } from "./routes.js";
import { gitRedirectTarget, parseGitPath, type GitService } from "./paths.js";
import { challenge, plain, serveGit, type GitHttpAnswer } from "./service.js";

const advertisementQuery = z.object({ service: z.enum(["git-upload-pack", "git-receive-pack"]) });

class Unauthenticated extends Error {}

/** `Authorization: Basic base64(user:token)`: the user name is not checked (GitLab's rule for tokens). */
async function callerOf(c: Context): Promise<Principal | undefined> {
  const header = c.req.header("authorization");
  if (!header) return undefined;
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) throw new Unauthenticated();
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const token = colon >= 0 ? decoded.slice(colon + 1) : "";
  if (token.length < 8 || token.length > 256) throw new Unauthenticated();
  try {
    const principal = await principalForTokenHash(hashToken(token), () => findToken(token));
    if (!tokenUsableForGit(principal)) throw new Unauthenticated();
    await recordTokenUse(principal.token);
    return principal;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) throw new Unauthenticated();
    throw err;
  }
}

/** The request body as a Node stream: the untouched Node request locally, the Lambda event's body on AWS. */
function bodyOf(c: Context): Readable | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && incoming.readable && !incoming.readableDidRead && incoming.readableFlowing === null) return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>) : undefined;
}

function toResponse(answer: GitHttpAnswer): Response {
  if (typeof answer.body === "string" || Buffer.isBuffer(answer.body)) return new Response(answer.body, { status: answer.status, headers: answer.headers });
  const chunks = answer.body[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return new Response(stream, { status: answer.status, headers: answer.headers });
}

async function serve(c: Context): Promise<Response> {
  const url = new URL(c.req.url);
  const target = parseGitPath(url.pathname);
  if (!target) {
    const redirect = c.req.method === "GET" ? gitRedirectTarget(url.pathname, url.search) : undefined;
    return redirect ? new Response(null, { status: 301, headers: { Location: redirect } }) : toResponse(plain(404, "Not Found"));
  }
  let service: GitService;
  if (target.step === "info/refs") {
    const query = advertisementQuery.safeParse({ service: c.req.query("service") });
    // Without `?service=` git falls back to the dumb protocol, which reads files: not served (as GitLab).
    if (!query.success) return toResponse(plain(403, "Only git's smart HTTP protocol is served: ?service=git-upload-pack or ?service=git-receive-pack."));
    service = query.data.service;
  } else {
    service = target.step;
  }
  try {
    const principal = await callerOf(c);
    const answer = await serveGit({
      method: c.req.method === "POST" ? "POST" : "GET",
      target,
      query: url.search.slice(1),
      service,
      principal,
      header: (name) => c.req.header(name),
      body: () => bodyOf(c),
    });
    return toResponse(answer);
  } catch (err) {
    if (err instanceof Unauthenticated) return toResponse(challenge());
    // The write path's refusals (409 busy, 404 gone meanwhile) in git's terms: text it prints.
    if (err instanceof ApiError) {
      const message = err.body && typeof err.body === "object" && "message" in err.body ? String(err.body.message) : "Not Found";
      return toResponse(plain(err.status, message, err.headers));
    }
    if (isOutOfSpace(err)) return toResponse(plain(507, STORAGE_FULL_MESSAGE));
    log.error("git http request failed", { path: url.pathname, ...describeError(err) });
    return toResponse(plain(503, "The repository could not be served right now. Please try again.", { "Retry-After": "5" }));
  }
}

export function mount(app: Hono): void {
  const [advertisement, uploadPack, receivePack] = GIT_HTTP_PATHS;
  app.get(advertisement, serve);
  app.post(uploadPack, serve);
  app.post(receivePack, serve);
}

/**
 * Lambda's Node runtime provides `awslambda.streamifyResponse`; elsewhere the module only mounts.
 * (The AWS SDK creates an empty `awslambda` object anywhere, so the function itself is what tells.)
 */
const onLambda = typeof (globalThis as { awslambda?: { streamifyResponse?: unknown } }).awslambda?.streamifyResponse === "function";

function lambdaApp(): Hono {
  const app = createApp();
  mount(app);
  return app;
}

/**
 * Lambda entry (function URL with response streaming). Lambda recognises a streaming handler by the
 * mark `awslambda.streamifyResponse` puts on it, so it is made when the module loads.
 */
export const handler: ReturnType<typeof streamHandle> = onLambda
  ? streamHandle(lambdaApp())
  : () => {
      throw new Error("The Git HTTP handler streams its responses: it runs on Lambda (or isolated mode), not called directly.");
    };
