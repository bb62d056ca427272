/**
 * Rotating personal access tokens (GitLab's `personal_access_tokens.md`: by id and `self`, reuse
 * detection) and a user's own limited token (`user_tokens.md`: `POST /user/personal_access_tokens`).
 */
import { describe, it, expect } from "vitest";
import { api, adminToken, newUser } from "../support/api.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { tokenKey } from "../../functions/identity/domain/keys.js";
import { hashToken } from "../../functions/identity/domain/tokens.js";

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function tokenOf(userId: number, scopes = ["api"], name = "rotating") {
  const res = await api("POST", `/api/v4/users/${userId}/personal_access_tokens`, { token: adminToken(), body: { name, scopes, description: "for the build" } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; token: string };
}

describe("POST /personal_access_tokens/:id/rotate", () => {
  it("revokes the token and answers its successor: same name, scopes and description, a week's life", async () => {
    const u = await newUser();
    const old = await tokenOf(u.id, ["api", "read_repository"]);
    const res = await api("POST", `/api/v4/personal_access_tokens/${old.id}/rotate`, { token: u.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "rotating", description: "for the build", scopes: ["api", "read_repository"], user_id: u.id, revoked: false, active: true, expires_at: inDays(7), last_used_at: null });
    expect(res.body.token).toMatch(/^glpat-/);
    expect(res.body.id).not.toBe(old.id);
    expect((await api("GET", "/api/v4/user", { token: old.token })).status).toBe(401);
    expect((await api("GET", "/api/v4/user", { token: res.body.token })).body.id).toBe(u.id);
    expect((await api("GET", `/api/v4/personal_access_tokens/${old.id}`, { token: u.token })).body).toMatchObject({ revoked: true, active: false });
    // Rotating a revoked token is GitLab's 400.
    expect(await api("POST", `/api/v4/personal_access_tokens/${old.id}/rotate`, { token: u.token })).toMatchObject({ status: 400, body: { message: "400 Bad request - token already revoked" } });
  });

  it("issues the successor as any token is issued: a scope listed twice (older data) once", async () => {
    const u = await newUser();
    const old = await tokenOf(u.id, ["api"]);
    await updateItem({ ...tokenKey(hashToken(old.token)), update: "SET scopes = :s", values: { ":s": ["api", "read_user", "api"] } });
    const res = await api("POST", `/api/v4/personal_access_tokens/${old.id}/rotate`, { token: u.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.scopes).toEqual(["api", "read_user"]);
    // Someone else's token is GitLab's 401 for its owner's peers, 404 for an administrator when unknown.
    expect((await api("POST", `/api/v4/personal_access_tokens/${res.body.id}/rotate`, { token: (await newUser()).token })).status).toBe(401);
    expect((await api("POST", "/api/v4/personal_access_tokens/999999999/rotate", { token: adminToken() })).status).toBe(404);
  });

  it("takes expires_at within the maximum lifetime", async () => {
    const u = await newUser();
    const t = await tokenOf(u.id);
    const rotate = (body: unknown) => api("POST", `/api/v4/personal_access_tokens/${t.id}/rotate`, { token: u.token, body });
    expect(await rotate({ expires_at: inDays(-1) })).toMatchObject({ status: 400, body: { message: "400 Bad request - Expires at must be in the future" } });
    expect(await rotate({ expires_at: inDays(400) })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^400 Bad request - Expires at must be before \d{4}-\d\d-\d\d$/) } });
    expect(await rotate({ expires_at: "soon" })).toMatchObject({ status: 400, body: { error: expect.stringContaining("expires_at") } });
    expect(await rotate({ expires_at: inDays(30) })).toMatchObject({ status: 200, body: { expires_at: inDays(30) } });
  });

  it("lets owners and administrators rotate: anyone else and an unknown token are 401, 404 for an administrator", async () => {
    const [owner, other] = await Promise.all([newUser(), newUser()]);
    const t = await tokenOf(owner.id);
    expect(await api("POST", `/api/v4/personal_access_tokens/${t.id}/rotate`, { token: other.token })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await api("POST", "/api/v4/personal_access_tokens/999999999/rotate", { token: other.token })).toMatchObject({ status: 401 });
    expect(await api("POST", "/api/v4/personal_access_tokens/999999999/rotate", { token: adminToken() })).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    expect((await api("POST", `/api/v4/personal_access_tokens/${t.id}/rotate`, { token: adminToken() })).body).toMatchObject({ user_id: owner.id });
    expect((await api("POST", `/api/v4/personal_access_tokens/${t.id}/rotate`)).status).toBe(401);
    expect((await api("POST", "/api/v4/personal_access_tokens/abc/rotate", { token: adminToken() })).status).toBe(400);
  });
});

describe("POST /personal_access_tokens/self/rotate", () => {
  it("rotates the token of the request, with api or self_rotate scope only", async () => {
    const u = await newUser();
    const res = await api("POST", "/api/v4/personal_access_tokens/self/rotate", { token: u.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "test", scopes: ["api"], expires_at: inDays(7) });
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(401);
    const readApi = await tokenOf(u.id, ["read_api"]);
    expect(await api("POST", "/api/v4/personal_access_tokens/self/rotate", { token: readApi.token })).toMatchObject({ status: 403, body: { error: "insufficient_scope", scope: "api self_rotate" } });
    const selfRotate = await tokenOf(u.id, ["self_rotate"]);
    expect((await api("GET", "/api/v4/projects", { token: selfRotate.token })).status).toBe(403);
    const rotated = await api("POST", "/api/v4/personal_access_tokens/self/rotate", { token: selfRotate.token, body: { expires_at: inDays(2) } });
    expect(rotated).toMatchObject({ status: 200, body: { scopes: ["self_rotate"], expires_at: inDays(2) } });
  });

  it("revokes the newest token of a family when a rotated (revoked) one comes back: reuse detection", async () => {
    const u = await newUser();
    const first = await tokenOf(u.id);
    const second = (await api("POST", "/api/v4/personal_access_tokens/self/rotate", { token: first.token })).body.token as string;
    const third = (await api("POST", "/api/v4/personal_access_tokens/self/rotate", { token: second })).body.token as string;
    expect((await api("GET", "/api/v4/user", { token: third })).status).toBe(200);
    // The leaked first token is presented again for a rotation: refused, and the family's active token goes too.
    expect((await api("POST", "/api/v4/personal_access_tokens/self/rotate", { token: first.token })).status).toBe(401);
    expect((await api("GET", "/api/v4/user", { token: third })).status).toBe(401);
    // A revoked token elsewhere is only refused.
    const other = await newUser();
    const kept = (await api("POST", "/api/v4/personal_access_tokens/self/rotate", { token: other.token })).body.token as string;
    expect((await api("GET", "/api/v4/user", { token: other.token })).status).toBe(401);
    expect((await api("GET", "/api/v4/user", { token: kept })).status).toBe(200);
  });
});

describe("POST /user/personal_access_tokens", () => {
  it("creates a k8s_proxy token for the caller, expiring at the end of the day by default", async () => {
    const u = await newUser();
    const res = await api("POST", "/api/v4/user/personal_access_tokens", { token: u.token, body: { name: "agent", scopes: ["k8s_proxy"] } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: "agent", scopes: ["k8s_proxy"], user_id: u.id, active: true, revoked: false, expires_at: inDays(1), token: expect.stringMatching(/^glpat-/) });
    // The agent for Kubernetes is not part of this service: the token opens nothing here.
    expect((await api("GET", "/api/v4/user", { token: res.body.token })).status).toBe(403);
    const dated = await api("POST", "/api/v4/user/personal_access_tokens", { token: u.token, body: { name: "agent", scopes: "k8s_proxy", expires_at: inDays(10) } });
    expect(dated.body.expires_at).toBe(inDays(10));
  });

  it("refuses any other scope, a past date, and callers without the api scope", async () => {
    const u = await newUser();
    const create = (body: unknown, token = u.token) => api("POST", "/api/v4/user/personal_access_tokens", { token, body });
    expect(await create({ name: "x", scopes: ["api"] })).toMatchObject({ status: 400, body: { error: "scopes is invalid" } });
    expect(await create({ name: "x" })).toMatchObject({ status: 400, body: { error: "scopes is invalid" } });
    expect(await create({ name: "x", scopes: ["k8s_proxy"], expires_at: inDays(0) })).toMatchObject({ status: 400, body: { message: { expires_at: ["must be in the future"] } } });
    const readApi = await tokenOf(u.id, ["read_api"]);
    expect((await create({ name: "x", scopes: ["k8s_proxy"] }, readApi.token)).status).toBe(403);
    expect((await api("POST", "/api/v4/user/personal_access_tokens", { body: { name: "x", scopes: ["k8s_proxy"] } })).status).toBe(401);
  });
});
