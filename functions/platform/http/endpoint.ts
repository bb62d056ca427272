/**
 * One endpoint = one route's behaviour: who may call it, the zod schemas of its path parameters,
 * query and body, and the function that serves it. The schemas drive validation (one error policy)
 * and the generated OpenAPI document.
 */
import type { Context } from "hono";
import * as z from "zod/mini";
import { ApiError, forbidden, paramError, unauthorized } from "./errors.js";
import { log } from "../log.js";
import { parseFormParams } from "./form.js";
import { authenticate, insufficientScope, type Principal } from "../../identity/domain/auth.js";
import { enforceApiThrottle } from "../../identity/domain/throttle.js";

/**
 * - `public`: no token needed; a token, when given, must be valid.
 * - `read`: `api` or `read_api` scope (GET endpoints).
 * - `read_user`: like `read`, and `read_user` scope is enough (`/user`, `/users`).
 * - `write`: `api` scope.
 * - `self_rotate`: `api` or `self_rotate` scope (a token rotating itself).
 */
export type Access = "public" | "read" | "read_user" | "write" | "self_rotate";

export interface EndpointSpec<P extends z.core.$ZodType, Q extends z.core.$ZodType, B extends z.core.$ZodType> {
  summary: string;
  access: Access;
  /**
   * Administrators only: 403 for others, or with `"hidden"` GitLab's admin-area `404 Not Found`, so
   * the route's existence is not disclosed. Either is answered before any parameter is read.
   */
  admin?: boolean | "hidden";
  params?: P;
  query?: Q;
  body?: B;
  /** Status of a successful answer when the handler returns a plain value. */
  status?: number;
}

export interface Request<P, Q, B, Auth> {
  c: Context;
  principal: Auth;
  params: P;
  query: Q;
  body: B;
}

export interface Endpoint {
  spec: EndpointSpec<z.core.$ZodType, z.core.$ZodType, z.core.$ZodType>;
  run(c: Context): Promise<Response>;
}

type Out<T> = T extends z.core.$ZodType ? z.output<T> : undefined;

async function readBody(c: Context): Promise<Record<string, unknown>> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (type.includes("multipart/form-data")) return readMultipart(c, type);
  const raw = await c.req.text();
  if (raw.trim() === "") return {};
  if (type.includes("application/x-www-form-urlencoded")) {
    const form = await new Response(raw, { headers: { "content-type": type } }).formData();
    return parseFormParams([...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]));
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new ApiError(400, { error: "body must be a JSON object" });
    }
    return parsed as Record<string, unknown>;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(400, { error: "body is not valid JSON" });
  }
}

/**
 * A multipart body (python-gitlab's uploads, curl's `-F`): its fields as a form, each file part as a
 * `File` under its own (unbracketed) name, for schemas that declare `z.file()`; read as bytes so a
 * binary part survives.
 */
async function readMultipart(c: Context, type: string): Promise<Record<string, unknown>> {
  const raw = await c.req.arrayBuffer();
  if (raw.byteLength === 0) return {};
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { "content-type": type } }).formData();
  } catch {
    throw new ApiError(400, { error: "body is not valid multipart/form-data" });
  }
  const fields: Array<[string, string]> = [];
  const files: Record<string, File> = {};
  for (const [k, v] of form.entries()) {
    if (typeof v === "string" && v === "" && FILE_PLACEHOLDERS.has(k)) continue;
    if (typeof v === "string") fields.push([k, v]);
    else if (/^[^[\]]+$/.test(k)) files[k] = v;
    else throw paramError(`${k} is not a valid file parameter name`);
  }
  return { ...parseFormParams(fields), ...files };
}

/**
 * python-gitlab puts a `file` and an `avatar` part in every multipart request it sends, empty text
 * when it has no such file (GitLab ignores parameters a route does not declare): such an empty part
 * means the file is absent.
 */
const FILE_PLACEHOLDERS = new Set(["file", "avatar"]);

/**
 * Grape's `declared(params)`: a parameter the route does not declare is dropped by the parse (zod
 * objects strip it), never refused; clients of other GitLab versions send some. This only names them
 * at debug level, never their values, and passes `input` on. A `name[]` key is a list the route reads
 * itself (`c.req.queries()`: `skip_groups[]`, `user_ids[]`), not an undeclared parameter.
 */
function logUndeclared(schema: z.core.$ZodType, input: object): object {
  // A schema without a shape declares what it parses: nothing is undeclared.
  const shape = (schema as { shape?: object }).shape ?? input;
  const names = Object.keys(input).filter((k) => !(k in shape) && !AUTH_PARAMS.has(k) && !k.endsWith("[]"));
  if (names.length) log.debug("undeclared parameters dropped", { names });
  return input;
}

export function defineEndpoint<
  P extends z.core.$ZodType = z.core.$ZodType<undefined>,
  Q extends z.core.$ZodType = z.core.$ZodType<undefined>,
  B extends z.core.$ZodType = z.core.$ZodType<undefined>,
  A extends Access = Access,
>(
  spec: EndpointSpec<P, Q, B> & { access: A },
  serve: (
    req: Request<Out<P>, Out<Q>, Out<B>, A extends "public" ? Principal | undefined : Principal>,
  ) => Promise<Response | unknown>,
): Endpoint {
  const body = spec.body;
  return {
    spec: spec as unknown as EndpointSpec<z.core.$ZodType, z.core.$ZodType, z.core.$ZodType>,
    async run(c) {
      const principal = await authorize(c, spec.access, spec.admin);
      const params = spec.params ? z.parse(spec.params, c.req.param()) : undefined;
      const query = spec.query ? z.parse(spec.query, logUndeclared(spec.query, c.req.query())) : undefined;
      let parsedBody: unknown;
      if (body) {
        // Grape merges query-string and body parameters for writes; so do we.
        const fromQuery = spec.query ? {} : parseFormParams([...new URL(c.req.url).searchParams.entries()].filter(([k]) => !AUTH_PARAMS.has(k)));
        const merged = { ...fromQuery, ...(await readBody(c)) };
        parsedBody = z.parse(body, logUndeclared(body, merged));
      }
      const result = await serve({
        c,
        principal: principal as never,
        params: params as never,
        query: query as never,
        body: parsedBody as never,
      });
      if (result instanceof Response) return result;
      return c.json(result as object, (spec.status ?? 200) as 200);
    },
  };
}

/** Parameters that say who calls, read by authentication; never part of a route's own parameters. */
const AUTH_PARAMS = new Set(["private_token", "sudo"]);

async function authorize(c: Context, access: Access, admin: EndpointSpec<never, never, never>["admin"]): Promise<Principal | undefined> {
  const principal = await authenticate(c);
  // Rack::Attack runs before the API itself: a request refused afterwards still counts.
  await enforceApiThrottle(c, principal);
  if (!principal) {
    if (access === "public" && !admin) return undefined;
    throw unauthorized();
  }
  // A token on a public route still needs a scope that reads the API: GitLab refuses a
  // read_user-only token everywhere but /user and /users.
  const needs = access === "public" ? "read" : access;
  const scopes = principal.scopes;
  const allowed =
    scopes.includes("api") ||
    ((needs === "read" || needs === "read_user") && scopes.includes("read_api")) ||
    (needs !== "read" && scopes.includes(needs as never));
  if (!allowed) throw insufficientScope(needs === "write" ? "api" : `api ${needs === "read" ? "read_api" : needs}`);
  if (admin && !principal.user.admin) throw admin === true ? forbidden() : new ApiError(404, { message: "404 Not Found" });
  return principal;
}
