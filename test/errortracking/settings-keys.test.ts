/**
 * Settings and client keys over HTTP: GitLab's messages and status codes, the role and scope matrix,
 * the hosted-only integrated backend, DSNs (with the deprecated secret form shown once), and the
 * seed's key-rotation procedure end to end.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, adminToken, newUser } from "../support/api.js";
import { getItem } from "../../functions/platform/db/table.js";
import { clientKeyKey } from "../../functions/errortracking/domain/contracts.js";
import { hashSecret } from "../../functions/errortracking/domain/client-keys.js";
import { saveSetting } from "../../functions/errortracking/domain/settings.js";
import { hosted, trackedProject, type User } from "./support.js";

let owner: User;
let project: { id: number };
const settings = () => `/api/v4/projects/${project.id}/error_tracking/settings`;
const keys = () => `/api/v4/projects/${project.id}/error_tracking/client_keys`;

async function member(level: number, scopes = ["api"]) {
  const user = await newUser({ scopes });
  const res = await api("POST", `/api/v4/projects/${project.id}/members`, { token: owner.token, body: { user_id: user.id, access_level: level } });
  expect(res.status).toBe(201);
  return user;
}

beforeAll(async () => {
  ({ owner, project } = await trackedProject({ enable: false }));
});

describe("error tracking settings API", () => {
  it("answers 404 Error Tracking Setting Not Found until a setting exists; PATCH does not create one", async () => {
    expect(await api("GET", settings(), { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Error Tracking Setting Not Found" } });
    expect(await api("PATCH", settings(), { token: owner.token, body: { active: false } })).toMatchObject({ status: 404, body: { message: "404 Error Tracking Setting Not Found" } });
  });

  it("validates booleans with Grape's messages, accepting python-gitlab's True/False", async () => {
    expect((await api("PUT", settings(), { token: owner.token, body: { integrated: false } })).body).toEqual({ error: "active is missing" });
    expect((await api("PUT", settings(), { token: owner.token, body: { active: false } })).body).toEqual({ error: "integrated is missing" });
    expect((await api("PUT", `${settings()}?active=&integrated=false`, { token: owner.token })).body).toEqual({ error: "active is empty" });
    expect((await api("PUT", `${settings()}?active=randomstring&integrated=false`, { token: owner.token })).body).toEqual({ error: "active is invalid" });
    const put = await api("PUT", `${settings()}?active=False&integrated=False`, { token: owner.token, headers: { "Content-Type": "application/json" } });
    expect(put).toMatchObject({ status: 200, body: { active: false, integrated: false, api_url: null, project_name: null, sentry_external_url: null } });
    expect(await api("PATCH", settings(), { token: owner.token, body: {} })).toMatchObject({ status: 400, body: { error: "active is missing" } });
  });

  it("refuses the integrated backend with a clear 400 unless the offering is hosted", async () => {
    const res = await api("PUT", settings(), { token: owner.token, body: { active: true, integrated: true } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/integrated error tracking is available only on the hosted offering/);
    // A third-party backend needs its URL and token, which the REST API cannot set.
    expect(await api("PATCH", settings(), { token: owner.token, body: { active: true } })).toMatchObject({ status: 400, body: { message: { api_url: ["is a required field"] } } });
  });

  it("when hosted, enabling integrated tracking creates a client key if none is active", async () => {
    const target = await trackedProject({ owner, enable: false });
    await saveSetting(target.project.id, { active: true, integrated: true }, { create: true, config: hosted() });
    await saveSetting(target.project.id, { active: true, integrated: true }, { create: true, config: hosted() });
    expect((await api("GET", `/api/v4/projects/${target.project.id}/error_tracking/settings`, { token: owner.token })).body).toEqual({
      active: true, integrated: true, api_url: null, project_name: null, sentry_external_url: null,
    });
    const list = await api("GET", `/api/v4/projects/${target.project.id}/error_tracking/client_keys`, { token: owner.token });
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toEqual({ id: expect.any(Number), active: true, public_key: expect.stringMatching(/^glet_[0-9a-f]{32}$/), sentry_dsn: expect.any(String) });
  });

  it("enforces Maintainer+ and the scopes: 401, 403 for Developer, read_api only for GETs, 404 for a stranger", async () => {
    const developer = await member(30);
    const readOnly = await member(40, ["read_api"]);
    const stranger = await newUser();
    for (const [method, url] of [["GET", settings()], ["PUT", settings()], ["PATCH", settings()], ["GET", keys()], ["POST", keys()], ["DELETE", `${keys()}/1`]] as const) {
      expect((await api(method, url)).status, `${method} ${url} anonymous`).toBe(401);
      const body = method === "GET" ? undefined : { active: true, integrated: false };
      expect((await api(method, url, { token: developer.token, body })).status, `${method} ${url} developer`).toBe(403);
      // As in GitLab, read_api reads (GET) and api writes.
      const asReadApi = (await api(method, url, { token: readOnly.token, body })).status;
      if (method === "GET") expect([200, 404], `${method} ${url} read_api`).toContain(asReadApi);
      else expect(asReadApi, `${method} ${url} read_api`).toBe(403);
      expect((await api(method, url, { token: stranger.token })).body, `${method} ${url} stranger`).toEqual({ message: "404 Project Not Found" });
    }
    const maintainer = await member(40);
    expect((await api("GET", keys(), { token: maintainer.token })).status).toBe(200);
    expect((await api("GET", keys(), { token: adminToken() })).status).toBe(200);
  });
});

describe("error tracking client keys API", () => {
  it("creates keys (201) with the DSN, and the deprecated public:secret DSN once, storing only the secret's hash", async () => {
    const res = await api("POST", keys(), { token: owner.token, headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(201);
    const { id, public_key, sentry_dsn, sentry_dsn_with_secret } = res.body;
    const host = new URL((await import("../support/api.js")).baseUrl()).host;
    expect(public_key).toMatch(/^glet_[0-9a-f]{32}$/);
    expect(sentry_dsn).toBe(`http://${public_key}@${host}/api/v4/error_tracking/collector/${project.id}`);
    const secret = /^http:\/\/glet_[0-9a-f]{32}:([0-9a-f]{32})@/.exec(sentry_dsn_with_secret)?.[1];
    expect(sentry_dsn_with_secret).toBe(`http://${public_key}:${secret}@${host}/api/v4/error_tracking/collector/${project.id}`);
    const stored = await getItem<Record<string, unknown>>(clientKeyKey(public_key).pk, clientKeyKey(public_key).sk);
    expect(stored).toMatchObject({ id, projectId: project.id, secretHash: hashSecret(secret!), active: true });
    expect(JSON.stringify(stored)).not.toContain(secret);
    const listed = (await api("GET", keys(), { token: owner.token })).body.find((k: { id: number }) => k.id === id);
    expect(listed).toEqual({ id, active: true, public_key, sentry_dsn });
  });

  it("follows the seed's key-rotation procedure: api token → create → list (note the old id) → delete the old key", async () => {
    const target = await trackedProject({ owner });
    const token = await api("POST", `/api/v4/users/${owner.id}/personal_access_tokens`, { token: adminToken(), body: { name: "rotate", scopes: ["api"] } });
    const pat = token.body.token as string;
    const url = `/api/v4/projects/${target.project.id}/error_tracking/client_keys`;
    const [old] = (await api("GET", url, { token: pat })).body;
    const created = await api("POST", url, { token: pat });
    expect(created.status).toBe(201);
    const listed = (await api("GET", url, { token: pat })).body as Array<{ id: number }>;
    expect(listed.map((k) => k.id)).toEqual([old.id, created.body.id]);
    const deleted = await api("DELETE", `${url}/${old.id}`, { token: pat, headers: { "Content-Type": "application/json" } });
    expect(deleted).toMatchObject({ status: 200, body: { id: old.id, active: true, public_key: old.public_key, sentry_dsn: old.sentry_dsn } });
    expect((await api("GET", url, { token: pat })).body.map((k: { id: number }) => k.id)).toEqual([created.body.id]);
    expect(await getItem(clientKeyKey(old.public_key).pk, "ETKEY")).toBeUndefined();
    expect((await api("DELETE", `${url}/${old.id}`, { token: pat })).status).toBe(404);
  });

  it("answers 404 for another project's key and 400 for a key id that is not a number", async () => {
    const other = await trackedProject({ owner });
    const [foreign] = (await api("GET", `/api/v4/projects/${other.project.id}/error_tracking/client_keys`, { token: owner.token })).body;
    expect((await api("DELETE", `${keys()}/${foreign.id}`, { token: owner.token })).body).toEqual({ message: "404 Not found" });
    expect((await api("DELETE", `${keys()}/abc`, { token: owner.token })).body).toEqual({ error: "key_id is invalid" });
    expect((await api("GET", `/api/v4/projects/${other.project.id}/error_tracking/client_keys`, { token: owner.token })).body).toHaveLength(1);
  });

  it("paginates the key list with GitLab's headers", async () => {
    const target = await trackedProject({ owner });
    const url = `/api/v4/projects/${target.project.id}/error_tracking/client_keys`;
    await api("POST", url, { token: owner.token });
    await api("POST", url, { token: owner.token });
    const page = await api("GET", `${url}?per_page=2`, { token: owner.token });
    expect(page.body).toHaveLength(2);
    expect(page.headers.get("x-next-page")).toBe("2");
    expect((await api("GET", `${url}?per_page=2&page=2`, { token: owner.token })).body).toHaveLength(1);
  });
});
