import { describe, it, expect } from "vitest";
import { request as httpRequest } from "node:http";
import { api, adminToken, baseUrl, newUser, unique } from "../support/api.js";
import { findToken, hashToken } from "../../functions/identity/domain/tokens.js";
import { getItem } from "../../functions/platform/db/table.js";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { dynamo } from "../../functions/platform/aws.js";
import { createApp } from "../../functions/platform/http/app.js";
import { mountEndpoint } from "../../functions/platform/http/lambda.js";
import * as getSettings from "../../functions/identity/http/get-settings.js";
import * as updateSettings from "../../functions/identity/http/update-settings.js";

describe("authentication", () => {
  it("accepts Private-Token in any case, Bearer, and private_token", async () => {
    const variants: Record<string, string>[] = [{ "Private-Token": adminToken() }, { "PRIVATE-TOKEN": adminToken() }, { Authorization: `Bearer ${adminToken()}` }];
    for (const headers of variants) {
      const res = await api("GET", "/api/v4/user", { headers });
      expect(res.status).toBe(200);
      expect(res.body.username).toBe("root");
    }
    const q = await api("GET", `/api/v4/user?private_token=${adminToken()}`);
    expect(q.body.is_admin).toBe(true);
  });

  it("answers 401 in GitLab's shape without or with a bad token", async () => {
    expect(await api("GET", "/api/v4/user")).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await api("GET", "/api/v4/user", { token: "glpat-not-a-real-token-000" })).toMatchObject({ status: 401 });
  });

  it("stores only a hash of each token", async () => {
    const u = await newUser();
    const record = await findToken(u.token);
    expect(record?.hash).toBe(hashToken(u.token));
    const item = await getItem<Record<string, unknown>>(`PAT#${hashToken(u.token)}`, "PAT");
    expect(JSON.stringify(item)).not.toContain(u.token);
  });

  it("enforces scopes: read_user reads /user but not /version; read_api cannot write", async () => {
    const readUser = await newUser({ scopes: ["read_user"] });
    expect((await api("GET", "/api/v4/user", { token: readUser.token })).status).toBe(200);
    const denied = await api("GET", "/api/v4/version", { token: readUser.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe("insufficient_scope");
    const readApi = await newUser({ scopes: ["read_api"] });
    expect((await api("GET", "/api/v4/version", { token: readApi.token })).status).toBe(200);
    expect((await api("DELETE", "/api/v4/personal_access_tokens/self", { token: readApi.token })).status).toBe(204);
  });

  it("revokes the token used and rejects it afterwards", async () => {
    const u = await newUser();
    const self = await api("GET", "/api/v4/personal_access_tokens/self", { token: u.token });
    expect(self.body).toMatchObject({ active: true, revoked: false, scopes: ["api"], user_id: u.id });
    expect(self.body.token).toBeUndefined();
    expect((await api("DELETE", "/api/v4/personal_access_tokens/self", { token: u.token })).status).toBe(204);
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(401);
  });

  it("refuses to create a token that would be born expired (expired tokens: tokens.test.ts)", async () => {
    const u = await newUser();
    const expired = await api("POST", `/api/v4/users/${u.id}/personal_access_tokens`, {
      token: adminToken(),
      body: { name: "old", scopes: ["api"], expires_at: "2020-01-01" },
    });
    expect(expired).toMatchObject({ status: 400, body: { message: { expires_at: ["must be in the future"] } } });
  });

  it("lets an admin with sudo scope act as another user, by header or parameter, by username or id", async () => {
    const u = await newUser();
    const res = await api("GET", "/api/v4/user", { token: adminToken(), headers: { Sudo: u.username } });
    expect(res.body.username).toBe(u.username);
    expect((await api("GET", `/api/v4/user?sudo=${u.id}`, { token: adminToken() })).body.username).toBe(u.username);
    // On a write the parameter is not one of the route's own: the project is created as the user.
    const created = await api("POST", `/api/v4/projects?sudo=${u.username}`, { token: adminToken(), body: { name: unique("sudo") } });
    expect(created.status).toBe(201);
    expect(created.body.namespace).toMatchObject({ path: u.username, kind: "user" });
  });

  it("answers sudo mistakes as GitLab does, in GitLab's order of checks", async () => {
    const u = await newUser();
    const notAdmin = await api("GET", "/api/v4/user", { token: u.token, headers: { Sudo: "root" } });
    expect(notAdmin).toMatchObject({ status: 403, body: { message: "403 Forbidden - Must be admin to use sudo" } });
    const plainAdmin = await newUser({ admin: true, scopes: ["api"] });
    const noScope = await api("GET", "/api/v4/user", { token: plainAdmin.token, headers: { Sudo: u.username } });
    expect(noScope).toMatchObject({ status: 403, body: { error: "insufficient_scope", scope: "sudo" } });
    const nobody = await api("GET", "/api/v4/user?sudo=no_such_user_here", { token: adminToken() });
    expect(nobody).toMatchObject({ status: 404, body: { message: "404 User with ID or username 'no_such_user_here' Not Found" } });
  });

  it("limits a read_user token to /user and /users, public lists included", async () => {
    const u = await newUser({ scopes: ["read_user"] });
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(200);
    expect((await api("GET", "/api/v4/users", { token: u.token })).status).toBe(200);
    for (const path of ["/api/v4/projects", "/api/v4/groups", "/api/v4/version"]) {
      const res = await api("GET", path, { token: u.token });
      expect(res, path).toMatchObject({ status: 403, body: { error: "insufficient_scope", scope: "api read_api" } });
    }
    // Without any token the public lists still answer.
    expect((await api("GET", "/api/v4/projects")).status).toBe(200);
  });
});

describe("users", () => {
  it("admin creates users; non-admins get 403; a taken username or e-mail is GitLab's 409, a group's path a validation error", async () => {
    const u = await newUser();
    const denied = await api("POST", "/api/v4/users", { token: u.token, body: { username: unique("x"), name: "x", email: "x@example.com" } });
    expect(denied).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    const dup = await api("POST", "/api/v4/users", { token: adminToken(), body: { username: u.username, name: "x", email: `${unique("e")}@example.com` } });
    expect(dup).toMatchObject({ status: 409, body: { message: "Username has already been taken" } });
    const sameEmail = await api("POST", "/api/v4/users", { token: adminToken(), body: { username: u.username, name: "x", email: `${u.username}@example.com` } });
    expect(sameEmail).toMatchObject({ status: 409, body: { message: "Email has already been taken" } });
    const groupPath = unique("grp");
    expect((await api("POST", "/api/v4/groups", { token: u.token, body: { name: groupPath, path: groupPath } })).status).toBe(201);
    const onGroup = await api("POST", "/api/v4/users", { token: adminToken(), body: { username: groupPath, name: "x", email: `${unique("e")}@example.com` } });
    expect(onGroup).toMatchObject({ status: 400, body: { message: { username: ["has already been taken"] } } });
  });

  it("validates input: missing, wrong type, unknown fields, invalid JSON", async () => {
    const missing = await api("POST", "/api/v4/users", { token: adminToken(), body: { name: "x" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain("username is missing");
    const wrongType = await api("POST", "/api/v4/users", { token: adminToken(), body: { username: 5, name: "x", email: "a@b.co" } });
    expect(wrongType.body.error).toContain("username is invalid");
    // A parameter the route does not declare is dropped (Grape's `declared(params)`), not refused.
    const unknown = await api("POST", "/api/v4/users", { token: adminToken(), body: { username: unique("u"), name: "x", email: `${unique("u")}@b.co`, color: "red" } });
    expect(unknown.status).toBe(201);
    expect(unknown.body).not.toHaveProperty("color");
    const badJson = await api("POST", "/api/v4/users", { token: adminToken(), raw: "{nope", headers: { "Content-Type": "application/json" } });
    expect(badJson).toMatchObject({ status: 400, body: { error: "body is not valid JSON" } });
  });

  it("rejects huge bodies with 413", async () => {
    const huge = "x".repeat(11 * 1024 * 1024);
    const res = await api("POST", "/api/v4/users", { token: adminToken(), raw: JSON.stringify({ name: huge }), headers: { "Content-Type": "application/json" } });
    expect(res).toMatchObject({ status: 413, body: { message: "413 Request Entity Too Large" } });
  });

  it("counts a chunked body (no Content-Length) as it arrives, and refuses it past the limit with 413", async () => {
    // A connection of its own: after a 413 the server stops reading and drops it.
    const chunked = (totalBytes: number) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const headers = { "Private-Token": adminToken(), "Content-Type": "application/json" };
        const req = httpRequest(new URL("/api/v4/users", baseUrl()), { method: "POST", agent: false, headers }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on("error", (err: NodeJS.ErrnoException) => (err.code === "EPIPE" || err.code === "ECONNRESET" ? undefined : reject(err)));
        for (let sent = 0; sent < totalBytes; sent += 1024 * 1024) req.write("x".repeat(Math.min(1024 * 1024, totalBytes - sent)));
        req.end();
      });
    expect(await chunked(11 * 1024 * 1024)).toEqual({ status: 413, body: { message: "413 Request Entity Too Large" } });
    // Under the limit, the body reaches the route, which reads it (here: not JSON).
    expect(await chunked(10)).toEqual({ status: 400, body: { error: "body is not valid JSON" } });
  });

  it("lists users with pagination headers", async () => {
    await newUser();
    await newUser();
    const res = await api("GET", "/api/v4/users?per_page=2&page=1", { token: adminToken() });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.headers.get("x-per-page")).toBe("2");
    expect(res.headers.get("x-next-page")).toBe("2");
    expect(res.headers.get("link")).toMatch(/^<http:\/\/.+page=2.*rel="next"/);
    const second = await api("GET", "/api/v4/users?per_page=2&page=2", { token: adminToken() });
    expect(second.body[0].id).toBeGreaterThan(res.body[1].id);
  });
});

describe("application settings", () => {
  it("sets repository_storages_weighted for configured storages only", async () => {
    const before = await api("GET", "/api/v4/application/settings", { token: adminToken() });
    expect(Object.keys(before.body.repository_storages_weighted).sort()).toEqual(["cluster", "default", "secondary"]);
    const bad = await api("PUT", "/api/v4/application/settings", { token: adminToken(), body: { repository_storages_weighted: { nowhere: 10 } } });
    expect(bad.status).toBe(400);
    const tooHeavy = await api("PUT", "/api/v4/application/settings", { token: adminToken(), body: { repository_storages_weighted: { default: 101 } } });
    expect(tooHeavy.status).toBe(400);
    const u = await newUser();
    expect((await api("GET", "/api/v4/application/settings", { token: u.token })).status).toBe(403);
  });

  it("stores default_projects_limit and signup_enabled, each change alone", async () => {
    const put = (body: Record<string, unknown>, token = adminToken()) => api("PUT", "/api/v4/application/settings", { token, body });
    const before = (await api("GET", "/api/v4/application/settings", { token: adminToken() })).body;
    expect(before).toMatchObject({ default_projects_limit: expect.any(Number), signup_enabled: expect.any(Boolean) });
    try {
      expect((await put({ default_projects_limit: 42 })).body).toMatchObject({ default_projects_limit: 42, signup_enabled: before.signup_enabled });
      expect((await put({ signup_enabled: !before.signup_enabled })).body).toMatchObject({ default_projects_limit: 42, signup_enabled: !before.signup_enabled });
      expect((await api("GET", "/api/v4/application/settings", { token: adminToken() })).body).toMatchObject({ default_projects_limit: 42, signup_enabled: !before.signup_enabled, repository_storages_weighted: before.repository_storages_weighted });
      expect(await put({ default_projects_limit: -1 })).toMatchObject({ status: 400, body: { message: { default_projects_limit: ["must be greater than or equal to 0"] } } });
      expect((await put({ default_projects_limit: 2 ** 31 })).status).toBe(400);
      expect((await put({ default_projects_limit: "many" })).status).toBe(400);
      expect((await put({ signup_enabled: "perhaps" })).status).toBe(400);
      expect((await put({ default_projects_limit: 1 }, (await newUser()).token)).status).toBe(403);
      expect((await api("GET", "/api/v4/application/settings", { token: adminToken() })).body.default_projects_limit).toBe(42);
    } finally {
      await put({ default_projects_limit: before.default_projects_limit, signup_enabled: before.signup_enabled });
    }
  });
});

describe("application settings, read once a request", () => {
  /** The settings routes served in this process, and how many times each request reads the settings item. */
  async function settingsReads(method: "GET" | "PUT", body?: unknown): Promise<{ status: number; reads: number; body: any }> {
    const app = createApp();
    mountEndpoint(app, "GET", "/api/v4/application/settings", getSettings.endpoint);
    mountEndpoint(app, "PUT", "/api/v4/application/settings", updateSettings.endpoint);
    let reads = 0;
    const name = `settingsReadCounter${Math.random()}`;
    const isSettings = (k: Record<string, AttributeValue> | undefined) => k?.pk?.S === "SETTINGS" && k?.sk?.S === "APPLICATION";
    dynamo().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as Record<string, any>;
        if (context.commandName === "GetItemCommand" && isSettings(input.Key)) reads++;
        return next(args);
      },
      { step: "initialize", name },
    );
    try {
      // The throttle's own read of the item (cached per process) is done before counting.
      await app.fetch(new Request("http://127.0.0.1/api/v4/application/settings", { headers: { "private-token": adminToken() } }));
      reads = 0;
      const res = await app.fetch(
        new Request("http://127.0.0.1/api/v4/application/settings", { method, headers: { "private-token": adminToken(), "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }),
      );
      return { status: res.status, reads, body: await res.json() };
    } finally {
      dynamo().middlewareStack.remove(name);
    }
  }

  it("GET reads the item once for every setting it shows; PUT reads it once and shows what its saves left", async () => {
    const got = await settingsReads("GET");
    expect(got).toMatchObject({ status: 200, reads: 1 });
    expect(got.body).toMatchObject({ repository_storages_weighted: expect.any(Object), throttle_authenticated_api_enabled: expect.any(Boolean), default_branch_protection: expect.any(Number) });
    const put = await settingsReads("PUT", { default_projects_limit: got.body.default_projects_limit, signup_enabled: got.body.signup_enabled });
    expect(put).toMatchObject({ status: 200, reads: 1 });
    expect(put.body).toEqual(got.body);
  });
});

describe("routing and error policy", () => {
  it("answers unknown routes with a JSON 404", async () => {
    expect(await api("GET", "/api/v4/does/not/exist")).toMatchObject({ status: 404, body: { error: "404 Not Found" } });
  });

  it("echoes a valid X-Request-Id and generates one otherwise", async () => {
    const given = await api("GET", "/api/v4/version", { token: adminToken(), headers: { "X-Request-Id": "req-12345678" } });
    expect(given.headers.get("x-request-id")).toBe("req-12345678");
    const generated = await api("GET", "/api/v4/version", { token: adminToken(), headers: { "X-Request-Id": "bad id!" } });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves an OpenAPI document generated from the schemas", async () => {
    const res = await api("GET", "/api/v4/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const create = res.body.paths["/api/v4/users"].post;
    expect(create.requestBody.content["application/json"].schema.properties.username).toBeDefined();
  });
});
