/**
 * Every /api/v4 route of the route table, driven by its endpoint's own declaration (access, admin,
 * schemas): the auth matrix (no token → 401, wrong scope → 403, non-admin on admin routes → 403,
 * non-member on a private container → 404) and bad input (invalid JSON, unknown fields, wrong
 * types, huge bodies → 400/413 in GitLab's shape, never 5xx). New routes are covered automatically.
 */
import { describe, it, expect, beforeAll, inject } from "vitest";
import { routes } from "../../functions/routes.js";
import type { Endpoint } from "../../functions/platform/http/endpoint.js";
import { loadModule } from "../../local/server.js";
import { api, newUser, unique } from "../support/api.js";

const apiRoutes = routes.filter((r) => r.path.startsWith("/api/v4/"));
const endpoints = new Map<string, Endpoint>();
const ids: Record<string, string> = {};
type User = Awaited<ReturnType<typeof newUser>>;
let owner: User;
/** The callers every route meets, created once: none of them is a member of anything. */
let readUserOnly: User, readApi: User, stranger: User, admin: User;

beforeAll(async () => {
  for (const r of apiRoutes) endpoints.set(`${r.method} ${r.path}`, (await loadModule<{ endpoint: Endpoint }>(r.module)).endpoint);
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

/** A concrete URL for a route: containers are the owner's private ones. */
function url(path: string): string {
  return path
    .replace(/^\/api\/v4\/(projects|groups|snippets)\/:id/, (_m, kind: string) => `/api/v4/${kind}/${ids[kind === "projects" ? "project" : kind === "groups" ? "group" : "snippet"]}`)
    .replace(":user_id", ids.user!)
    .replace(":file_path", "README.md")
    .replace(":slug", "home")
    .replace(":ref", "main")
    .replace(/:[a-z_]+/g, "1") + (/\/files\/:file_path(\/blame)?$/.test(path) ? "?ref=main" : "");
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
    const anonymous = await api(route.method, target);
    if (spec.access !== "public" || spec.admin) expectAnswer(anonymous, { status: 401, body: { message: "401 Unauthorized" } });
    else expect([200, 401, 404]).toContain(anonymous.status);

    const narrow = await api(route.method, target, { token: readUserOnly.token, body: bodiless ? undefined : {} });
    // GitLab limits read_user to /user and /users: every other route, public ones included, is 403.
    if (spec.access !== "read_user") expectAnswer(narrow, { status: 403, body: { error: "insufficient_scope" } });
    else expect(narrow.status).toBeLessThan(400);
    if (spec.access === "write") {
      expect((await api(route.method, target, { token: readApi.token, body: route.method === "DELETE" ? undefined : {} })).status).toBe(403);
    }

    // Revoking "self" would end the shared stranger's token for every later route: that route gets its own.
    const caller = route.method === "DELETE" && route.path.endsWith("/personal_access_tokens/self") ? await newUser() : stranger;
    const asStranger = await api(route.method, target, { token: caller.token, body: bodiless ? undefined : {} });
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
      const badJson = await api(route.method, target, { token, raw: "{not json", headers: { "Content-Type": "application/json" } });
      expect(badJson).toMatchObject({ status: 400, body: { error: "body is not valid JSON" } });
      const unknown = await api(route.method, target, { token, body: { surely_not_a_field_xyz: 1 } });
      expect(unknown.status).toBe(400);
      expect(JSON.stringify(unknown.body)).toMatch(/surely_not_a_field_xyz is not a recognized parameter|is missing|does not have a valid value|is invalid/);
      const wrongTypes = await api(route.method, target, { token, raw: "[1,2,3]", headers: { "Content-Type": "application/json" } });
      expect(wrongTypes.status).toBe(400);
      const huge = await api(route.method, target, { token, raw: JSON.stringify({ x: "y".repeat(11 * 1024 * 1024) }), headers: { "Content-Type": "application/json" } });
      // One process: the function's own limit answers, in GitLab's words. Isolated mode, as on AWS:
      // the event exceeds Lambda's 6 MB payload limit and the gateway answers before any function runs.
      expect(huge).toMatchObject({ status: 413, body: { message: inject("isolatedBuildDir") ? "Request Entity Too Large" : "413 Request Entity Too Large" } });
    }
    if (spec.query) {
      const res = await api(route.method, `${target}${target.includes("?") ? "&" : "?"}per_page=lots&page=-1`, { token });
      expect(res.status).toBeLessThan(500);
      if ("page" in ((spec.query as unknown as { shape?: object }).shape ?? {})) expect(res).toMatchObject({ status: 400 });
    }
    const numericParam = /:(user_id|key_id|move_id)/.exec(route.path);
    if (numericParam) {
      const wrong = await api(route.method, target.replace(/\/\d+(\/[^/]*)?$/, (m, rest: string | undefined) => `/abc${rest ?? ""}`), { token, body: spec.body ? {} : undefined });
      expect(wrong.status).toBeGreaterThanOrEqual(400);
      expect(wrong.status).toBeLessThan(500);
    }
  });
});
