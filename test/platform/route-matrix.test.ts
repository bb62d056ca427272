/**
 * Every /api/v4 route of the route table, driven by its endpoint's own declaration (access, admin,
 * schemas): the auth matrix (no token → 401, wrong scope → 403, non-admin on admin routes → 403,
 * non-member on a private container → 404) and bad input (invalid JSON, wrong types, huge bodies →
 * 400/413 in GitLab's shape, never 5xx); an undeclared parameter changes no answer, as GitLab drops
 * it. New routes are covered automatically.
 * Then what depends on how the client reached the server: pagination links, cookies, redirects
 * and the API documents.
 *
 * In the isolated project every answer is also compared with one process's over the same data
 * (`support/one-process.ts`): status, body shape and headers, where only the request ids, the date
 * and an over-Lambda-sized body's 413 (API Gateway's, see below) may differ.
 */
import { describe, it, expect, beforeAll, afterAll, inject } from "vitest";
import * as z from "zod/mini";
import { routes } from "../../functions/routes.js";
import type { Endpoint } from "../../functions/platform/http/endpoint.js";
import { loadModule } from "../../local/server.js";
import { buildOpenApiDocument } from "../../functions/platform/http/openapi-document.js";
import { api, baseUrl, newUser, requestAt, unique } from "../support/api.js";
import { expectSameAnswer, startOneProcess, type OneProcess } from "../support/one-process.js";
import { basic, USUARIOS } from "../academic/support.js";

const apiRoutes = routes.filter((r) => r.path.startsWith("/api/v4/"));
/** A parameter no route declares, and a value no scalar, array or file parameter accepts. */
const UNKNOWN = "surely_not_a_field_xyz";
const WRONG_VALUE = { surely: [] };
const endpoints = new Map<string, Endpoint>();
const ids: Record<string, string> = {};
type User = Awaited<ReturnType<typeof newUser>>;
let owner: User;
/** The callers every route meets, created once: none of them is a member of anything. */
let readUserOnly: User, readApi: User, stranger: User, admin: User;
let oneProcess: OneProcess | undefined;

/** A request to the runtime under test; in the isolated project, one process must answer it alike. */
async function call(method: string, path: string, opts: Parameters<typeof api>[2] = {}) {
  const res = await api(method, path, opts);
  if (oneProcess) await expectSameAnswer(oneProcess, method, path, opts, res);
  return res;
}

beforeAll(async () => {
  for (const r of apiRoutes) endpoints.set(`${r.method} ${r.path}`, (await loadModule<{ endpoint: Endpoint }>(r.module)).endpoint);
  if (inject("isolatedBuildDir")) oneProcess = await startOneProcess();
  owner = await newUser();
  [readUserOnly, readApi, stranger, admin] = await Promise.all([newUser({ scopes: ["read_user"] }), newUser({ scopes: ["read_api"] }), newUser(), newUser({ admin: true })]);
  const project = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("matrix"), initialize_with_readme: true } });
  const group = await api("POST", "/api/v4/groups", { token: owner.token, body: { name: "matrix", path: unique("matrix") } });
  const snippet = await api("POST", "/api/v4/snippets", { token: owner.token, body: { title: "s", files: [{ file_path: "a.txt", content: "a" }] } });
  ids.project = String(project.body.id);
  ids.group = String(group.body.id);
  ids.snippet = String(snippet.body?.id ?? 999999);
  ids.user = String(owner.id);
});

afterAll(() => oneProcess?.stop());

/** `read_user` routes about one user that only that user and administrators may call (the URL names the owner). */
const SELF_OR_ADMIN = new Set(["GET /api/v4/users/:user_id/associations_count"]);

/** Query parameters a route requires (GitLab's `requires`), so that it answers beyond its 400. */
const REQUIRED_QUERY: Array<[RegExp, string]> = [
  [/\/files\/:file_path(\/blame)?$/, "?ref=main"],
  [/^\/api\/v4\/avatar$/, "?email=someone@example.com"],
];

/** A concrete URL for a route: containers are the owner's private ones. */
function url(path: string): string {
  return path
    .replace(/^\/api\/v4\/(projects|groups|snippets)\/:id/, (_m, kind: string) => `/api/v4/${kind}/${ids[kind === "projects" ? "project" : kind === "groups" ? "group" : "snippet"]}`)
    .replace(":user_id", ids.user!)
    .replace(":file_path", "README.md")
    .replace(":slug", "home")
    .replace(":ref", "main")
    .replace(/:[a-z_]+/g, "1") + (REQUIRED_QUERY.find(([pattern]) => pattern.test(path))?.[1] ?? "");
}

const scopedToContainer = (path: string) => /^\/api\/v4\/(projects|groups|snippets)\/:id/.test(path);

// Routes are independent (no caller is a member of anything, no test changes shared state), so they
// run a few at a time: in the isolated project their functions' cold starts overlap.
describe.concurrent.each(apiRoutes)("$method $path", (route) => {
  const key = `${route.method} ${route.path}`;
  const bodiless = route.method === "GET" || route.method === "HEAD" || route.method === "DELETE";
  // A HEAD answer has the status and headers of its GET, never a body.
  const expectAnswer = (res: { status: number }, expected: { status: number; body?: unknown }) =>
    expect(res).toMatchObject(route.method === "HEAD" ? { status: expected.status } : expected);

  it("enforces authentication, scopes, admin and visibility", async () => {
    const spec = endpoints.get(key)!.spec;
    const target = url(route.path);
    const anonymous = await call(route.method, target);
    if (spec.access !== "public" || spec.admin) expectAnswer(anonymous, { status: 401, body: { message: "401 Unauthorized" } });
    else expect([200, 401, 404]).toContain(anonymous.status);

    const narrow = await call(route.method, target, { token: readUserOnly.token, body: bodiless ? undefined : {} });
    // GitLab limits read_user to /user and /users: every other route, public ones included, is 403.
    if (spec.access !== "read_user") expectAnswer(narrow, { status: 403, body: { error: "insufficient_scope" } });
    // A route for the user itself (or an administrator) refuses anyone else, whatever the scope.
    else if (SELF_OR_ADMIN.has(key)) expectAnswer(narrow, { status: 403, body: { message: "403 Forbidden" } });
    else expect(narrow.status).toBeLessThan(400);
    if (spec.access === "write") {
      expect((await call(route.method, target, { token: readApi.token, body: route.method === "DELETE" ? undefined : {} })).status).toBe(403);
    }

    // Revoking or rotating "self" would end the shared stranger's token for every later route: those routes get their own.
    const caller = /\/personal_access_tokens\/self(\/rotate)?$/.test(route.path) && route.method !== "GET" ? await newUser() : stranger;
    const asStranger = await call(route.method, target, { token: caller.token, body: bodiless ? undefined : {} });
    if (spec.admin) expect(asStranger).toMatchObject({ status: 403 });
    // A body's parameters are checked before the container is looked up (Grape's order): a DELETE
    // that takes a body answers a stranger's empty one with 400, leaking nothing.
    else if (scopedToContainer(route.path) && (route.method === "GET" || route.method === "HEAD" || !spec.body)) expect(asStranger.status).toBe(404);
    expect(asStranger.status).toBeLessThan(500);
  });

  it("answers bad input with 400/413 in GitLab's shape, never 5xx", async () => {
    const spec = endpoints.get(key)!.spec;
    const token = admin.token;
    const target = url(route.path);
    if (spec.body) {
      const badJson = await call(route.method, target, { token, raw: "{not json", headers: { "Content-Type": "application/json" } });
      expect(badJson).toMatchObject({ status: 400, body: { error: "body is not valid JSON" } });
      // A declared field with a bad value keeps its 400, an undeclared one beside it is never named.
      const shape = (spec.body as unknown as { shape?: Record<string, z.core.$ZodType> }).shape ?? {};
      const declared = Object.keys(shape).find((k) => !z.safeParse(shape[k]!, WRONG_VALUE).success);
      if (declared) {
        const bad = await call(route.method, target, { token, body: { [declared]: WRONG_VALUE, [UNKNOWN]: 1 } });
        expect(bad.status).toBe(400);
        expect(JSON.stringify(bad.body)).toContain(declared);
        expect(JSON.stringify(bad.body)).not.toContain(UNKNOWN);
      }
      const wrongTypes = await call(route.method, target, { token, raw: "[1,2,3]", headers: { "Content-Type": "application/json" } });
      expect(wrongTypes.status).toBe(400);
      const huge = await api(route.method, target, { token, raw: JSON.stringify({ x: "y".repeat(11 * 1024 * 1024) }), headers: { "Content-Type": "application/json" } });
      // One process: the function's own limit answers, in GitLab's words. Isolated mode, as on AWS:
      // the event exceeds Lambda's 6 MB payload limit and the gateway answers before any function runs.
      expect(huge).toMatchObject({ status: 413, body: { message: inject("isolatedBuildDir") ? "Request Entity Too Large" : "413 Request Entity Too Large" } });
    }
    if (spec.query) {
      const res = await call(route.method, `${target}${target.includes("?") ? "&" : "?"}per_page=lots&page=-1`, { token });
      expect(res.status).toBeLessThan(500);
      if ("page" in ((spec.query as unknown as { shape?: object }).shape ?? {})) expect(res).toMatchObject({ status: 400 });
    }
    // An undeclared parameter is dropped (Grape's `declared(params)`): the answer is the one without
    // it. An administrator's reads, and anyone's request a stranger may make, compared.
    // Revoking or rotating "self" ends the caller's token: each of its two requests gets a caller of its own.
    const revokesSelf = (route.method === "DELETE" && route.path.endsWith("/personal_access_tokens/self")) || (route.method === "POST" && route.path.endsWith("/personal_access_tokens/self/rotate"));
    const compared: Array<[() => Promise<User> | User, string]> = [[() => (revokesSelf ? newUser() : stranger), "stranger"]];
    if (route.method === "GET" || route.method === "HEAD") compared.push([() => admin, "administrator"]);
    for (const [caller, who] of compared) {
      const plain = bodiless ? await call(route.method, target, { token: (await caller()).token }) : await call(route.method, target, { token: (await caller()).token, body: {} });
      const withUnknown = bodiless
        ? await call(route.method, `${target}${target.includes("?") ? "&" : "?"}${UNKNOWN}=1`, { token: (await caller()).token })
        : await call(route.method, target, { token: (await caller()).token, body: { [UNKNOWN]: 1 } });
      expect(withUnknown.status, `${who} with ${UNKNOWN}`).toBe(plain.status);
      if (plain.status >= 400) expect(withUnknown.body, `${who} with ${UNKNOWN}`).toEqual(plain.body);
      else expect(Array.isArray(withUnknown.body)).toBe(Array.isArray(plain.body));
    }
    const numericParam = /:(user_id|key_id|move_id)/.exec(route.path);
    if (numericParam) {
      const wrong = await call(route.method, target.replace(/\/\d+(\/[^/]*)?$/, (m, rest: string | undefined) => `/abc${rest ?? ""}`), { token, body: spec.body ? {} : undefined });
      expect(wrong.status).toBeGreaterThanOrEqual(400);
      expect(wrong.status).toBeLessThan(500);
    }
  });
});

describe("what depends on how the client reached the server", () => {
  it("pagination links point at the server the client called, over its scheme", async () => {
    const lister = await newUser();
    for (const name of ["first", "second"]) await api("POST", "/api/v4/projects", { token: lister.token, body: { name: unique(name) } });
    const res = await call("GET", "/api/v4/projects?membership=true&per_page=1", { token: lister.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("link")).toContain(`<${baseUrl()}/api/v4/projects?`);
    expect(res.headers.get("link")).toMatch(/rel="next"/);
  });

  it("cookies are Secure only when the client came over HTTPS", async () => {
    const page = await call("GET", "/users/sign_in");
    expect(page.headers.getSetCookie().length).toBeGreaterThan(0);
    for (const cookie of page.headers.getSetCookie()) expect(cookie).not.toMatch(/;\s*Secure/i);
    const behindTls = await call("GET", "/users/sign_in", { headers: { "X-Forwarded-Proto": "https" } });
    expect(behindTls.headers.getSetCookie().length).toBeGreaterThan(0);
    for (const cookie of behindTls.headers.getSetCookie()) expect(cookie).toMatch(/;\s*Secure/i);
  });

  it("a page sends an anonymous visitor to sign in", async () => {
    const res = await call("GET", "/", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/users/sign_in?return_to=%2F");
  });

  it.each(["/rest/api-docs", "/rest/v2/api-docs"])("the Swagger document %s names the scheme the client used", async (path) => {
    const opts = { headers: { Authorization: basic(USUARIOS.admin.usuario, USUARIOS.admin.password) } };
    const res = await call("GET", path, opts);
    expect(res.status).toBe(200);
    expect(res.body.schemes).toEqual(["http"]);
    if (oneProcess) expect(res.body).toEqual((await requestAt(oneProcess.baseUrl, "GET", path, opts)).body);
  });

  it("the OpenAPI document is the one the route modules describe", async () => {
    const res = await call("GET", "/api/v4/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await buildOpenApiDocument());
  });
});
