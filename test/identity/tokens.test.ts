/**
 * Personal access tokens as GitLab serves them: the list with its filters and who sees what, one
 * token by id, revocation by id, `expires_at` validation, the `invalid_token` answers for revoked and
 * expired tokens, and `last_used_at` written at most once per 10 minutes.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, adminToken, newUser, unique } from "../support/api.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { tokenKey } from "../../functions/identity/domain/keys.js";
import { hashToken } from "../../functions/identity/domain/tokens.js";

type User = Awaited<ReturnType<typeof newUser>>;

async function issue(user: User, body: Record<string, unknown>) {
  const res = await api("POST", `/api/v4/users/${user.id}/personal_access_tokens`, { token: adminToken(), body: { scopes: ["api"], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; token: string; name: string };
}

/** Sets a stored token attribute directly, as time passing would (no waiting in tests). */
const setStored = (plain: string, attribute: string, value: string) =>
  updateItem({ ...tokenKey(hashToken(plain)), update: "SET #a = :v", names: { "#a": attribute }, values: { ":v": value } });

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("personal access tokens", () => {
  let alice: User;
  let bob: User;
  const tag = unique("pat");

  beforeAll(async () => {
    alice = await newUser();
    bob = await newUser();
  });

  it("lists every token for administrators (user_id narrows), only one's own for others, with GitLab's filters", async () => {
    const kept = await issue(alice, { name: `${tag}-kept` });
    const gone = await issue(alice, { name: `${tag}-gone` });
    expect((await api("DELETE", `/api/v4/personal_access_tokens/${gone.id}`, { token: adminToken() })).status).toBe(204);

    const admins = await api("GET", `/api/v4/personal_access_tokens?search=${tag}`, { token: adminToken() });
    expect(admins.body.map((t: { id: number }) => t.id)).toEqual([gone.id, kept.id]);
    const forBob = await api("GET", `/api/v4/personal_access_tokens?user_id=${bob.id}`, { token: adminToken() });
    expect(forBob.body.map((t: { user_id: number }) => t.user_id)).toEqual([bob.id]);

    // A non-administrator's user_id is ignored: it sees its own tokens only.
    const own = await api("GET", `/api/v4/personal_access_tokens?user_id=${alice.id}`, { token: bob.token });
    expect(own.body.every((t: { user_id: number }) => t.user_id === bob.id)).toBe(true);
    expect(own.body).toHaveLength(1);

    const names = async (q: string) => (await api("GET", `/api/v4/personal_access_tokens?search=${tag}&${q}`, { token: alice.token })).body.map((t: { name: string }) => t.name);
    expect(await names("state=active")).toEqual([`${tag}-kept`]);
    expect(await names("state=inactive")).toEqual([`${tag}-gone`]);
    expect(await names("revoked=True")).toEqual([`${tag}-gone`]);
    expect(await names("revoked=false")).toEqual([`${tag}-kept`]);
    expect(await names(`created_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    expect(await names(`created_before=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toHaveLength(2);
    // Grape's DateTime: a date alone (GitLab's own example) and a time without a zone (UTC) are read too.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await names(`created_before=${tomorrow}`)).toHaveLength(2);
    expect(await names(`created_after=${tomorrow}T00:00:00`)).toEqual([]);
    expect(await names("created_before=2022-01-01")).toEqual([]);
    const bad = await api("GET", "/api/v4/personal_access_tokens?state=expired", { token: alice.token });
    expect(bad).toMatchObject({ status: 400, body: { error: "state does not have a valid value" } });
  });

  it("shows one token to its owner and administrators, 404 to others", async () => {
    const t = await issue(alice, { name: `${tag}-one` });
    expect(await api("GET", `/api/v4/personal_access_tokens/${t.id}`, { token: alice.token })).toMatchObject({ status: 200, body: { id: t.id, name: `${tag}-one`, user_id: alice.id, active: true } });
    expect((await api("GET", `/api/v4/personal_access_tokens/${t.id}`, { token: adminToken() })).status).toBe(200);
    expect(await api("GET", `/api/v4/personal_access_tokens/${t.id}`, { token: bob.token })).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    expect((await api("GET", "/api/v4/personal_access_tokens/999999999", { token: adminToken() })).status).toBe(404);
    // The token itself is never shown again.
    expect((await api("GET", `/api/v4/personal_access_tokens/${t.id}`, { token: alice.token })).body.token).toBeUndefined();
  });

  it("revokes by id (owner or administrator), and a revoked token gets GitLab's invalid_token answer", async () => {
    const t = await issue(alice, { name: `${tag}-revoke` });
    expect(await api("DELETE", `/api/v4/personal_access_tokens/${t.id}`, { token: bob.token })).toMatchObject({ status: 400, body: { message: "400 Bad request" } });
    expect((await api("GET", "/api/v4/user", { token: t.token })).status).toBe(200);
    expect((await api("DELETE", `/api/v4/personal_access_tokens/${t.id}`, { token: alice.token })).status).toBe(204);
    const refused = await api("GET", "/api/v4/user", { token: t.token });
    expect(refused).toMatchObject({ status: 401, body: { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." } });
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await api("DELETE", `/api/v4/personal_access_tokens/${t.id}`, { token: adminToken() })).status).toBe(204);
    expect(await api("GET", `/api/v4/personal_access_tokens/${t.id}`, { token: adminToken() })).toMatchObject({ body: { revoked: true, active: false } });
  });

  it("validates expires_at: not today or earlier, not beyond the maximum lifetime", async () => {
    for (const [expires_at, message] of [
      ["2020-01-01", "must be in the future"],
      [daysFromNow(0), "must be in the future"],
      [daysFromNow(400), `must be before ${daysFromNow(366)}`],
    ]) {
      const res = await api("POST", `/api/v4/users/${alice.id}/personal_access_tokens`, { token: adminToken(), body: { name: "x", scopes: ["api"], expires_at } });
      expect(res).toMatchObject({ status: 400, body: { message: { expires_at: [message] } } });
    }
    const ok = await issue(alice, { name: `${tag}-dated`, expires_at: daysFromNow(30) });
    expect((await api("GET", "/api/v4/user", { token: ok.token })).status).toBe(200);
  });

  it("answers an expired token with GitLab's invalid_token body", async () => {
    const t = await issue(alice, { name: `${tag}-expiring`, expires_at: daysFromNow(5) });
    await setStored(t.token, "expiresAt", "2020-01-01"); // the day it expires has come
    expect(await api("GET", "/api/v4/user", { token: t.token })).toMatchObject({
      status: 401,
      body: { error: "invalid_token", error_description: "Token is expired. You can either do re-authorization or token refresh." },
    });
  });

  it("writes last_used_at at most once per 10 minutes", async () => {
    const fresh = await issue(alice, { name: `${tag}-used` });
    expect((await api("GET", `/api/v4/personal_access_tokens/${fresh.id}`, { token: adminToken() })).body.last_used_at).toBeNull();
    expect((await api("GET", "/api/v4/user", { token: fresh.token })).status).toBe(200);
    const first = (await api("GET", `/api/v4/personal_access_tokens/${fresh.id}`, { token: adminToken() })).body.last_used_at;
    expect(first).toEqual(expect.any(String));
    for (let i = 0; i < 5; i++) await api("GET", "/api/v4/user", { token: fresh.token });
    // No write since the first: the stored value is the first one.
    expect((await api("GET", `/api/v4/personal_access_tokens/${fresh.id}`, { token: adminToken() })).body.last_used_at).toBe(first);

    // A use recorded 5 minutes ago is within the window: untouched. One 11 minutes ago is rewritten.
    const recent = await issue(alice, { name: `${tag}-recent` });
    const fiveAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    await setStored(recent.token, "lastUsedAt", fiveAgo);
    await api("GET", "/api/v4/user", { token: recent.token });
    expect((await api("GET", `/api/v4/personal_access_tokens/${recent.id}`, { token: adminToken() })).body.last_used_at).toBe(fiveAgo);

    const stale = await issue(alice, { name: `${tag}-stale` });
    const elevenAgo = new Date(Date.now() - 11 * 60_000).toISOString();
    await setStored(stale.token, "lastUsedAt", elevenAgo);
    await api("GET", "/api/v4/user", { token: stale.token });
    const rewritten = (await api("GET", `/api/v4/personal_access_tokens/${stale.id}`, { token: adminToken() })).body.last_used_at;
    expect(rewritten > elevenAgo).toBe(true);
  });
});
