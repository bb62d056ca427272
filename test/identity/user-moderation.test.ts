/**
 * User moderation beside block and ban (GitLab's `user_moderation.md`): deactivate and reactivate
 * (dormant users only, a deactivated user's tokens stop working, signing in reactivates), approve
 * and reject (no user is ever pending approval here), and `disable_two_factor` (no user has it).
 */
import { describe, it, expect } from "vitest";
import { api, adminToken, newUser } from "../support/api.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { tokenKey } from "../../functions/identity/domain/keys.js";
import { hashToken } from "../../functions/identity/domain/tokens.js";
import { dormant } from "../../functions/identity/http/user-moderation.js";

const act = (id: number | string, action: string, token = adminToken()) => api("POST", `/api/v4/users/${id}/${action}`, { token });
const stateOf = async (id: number) => (await api("GET", `/api/v4/users/${id}`, { token: adminToken() })).body.state;
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe("deactivate and activate", () => {
  it("deactivates a dormant user, whose tokens then stop working, and reactivates it", async () => {
    const u = await newUser();
    expect(await act(u.id, "deactivate")).toMatchObject({ status: 201, body: true });
    expect(await stateOf(u.id)).toBe("deactivated");
    expect(await api("GET", "/api/v4/user", { token: u.token })).toMatchObject({ status: 401 });
    // GitLab's `break`: deactivating a deactivated user answers nothing.
    const again = await act(u.id, "deactivate");
    expect(again.status).toBe(201);
    expect(again.body ?? null).toBeNull();
    expect(await act(u.id, "unblock")).toMatchObject({ status: 403, body: { message: "403 Forbidden - Deactivated users cannot be unblocked by the API" } });
    expect(await act(u.id, "ban")).toMatchObject({ status: 403, body: { message: "You cannot ban deactivated users." } });
    expect(await act(u.id, "activate")).toMatchObject({ status: 201, body: true });
    expect(await stateOf(u.id)).toBe("active");
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(200);
    expect(await act(u.id, "activate")).toMatchObject({ status: 201, body: false });
  });

  it("refuses a user active in the last 90 days: its tokens' last use is its last activity", async () => {
    const u = await newUser();
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(200);
    expect(await act(u.id, "deactivate")).toMatchObject({
      status: 403,
      body: { message: "The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated" },
    });
    expect(await stateOf(u.id)).toBe("active");
    // Active 91 days ago: dormant again.
    await updateItem({ ...tokenKey(hashToken(u.token)), update: "SET lastUsedAt = :d", values: { ":d": `${daysAgo(91)}T12:00:00.000Z` } });
    expect(await act(u.id, "deactivate")).toMatchObject({ status: 201, body: true });
  });

  it("reads dormancy as GitLab's can_be_deactivated? does", () => {
    expect(dormant(undefined)).toBe(true);
    expect(dormant(daysAgo(0))).toBe(false);
    expect(dormant(daysAgo(89))).toBe(false);
    expect(dormant(daysAgo(91))).toBe(true);
  });

  it("refuses blocked and banned users 403, and blocks a deactivated one", async () => {
    const [blocked, banned, deactivated] = await Promise.all([newUser(), newUser(), newUser()]);
    await act(blocked.id, "block");
    await act(banned.id, "ban");
    for (const u of [blocked, banned]) {
      expect(await act(u.id, "deactivate")).toMatchObject({ status: 403, body: { message: "Error occurred. A blocked user cannot be deactivated" } });
      expect(await act(u.id, "activate")).toMatchObject({ status: 403, body: { message: "403 Forbidden - A blocked user must be unblocked to be activated" } });
    }
    await act(deactivated.id, "deactivate");
    expect(await act(deactivated.id, "block")).toMatchObject({ status: 201, body: true });
    expect(await stateOf(deactivated.id)).toBe("blocked");
  });
});

describe("approve and reject", () => {
  it("answers as GitLab does for a user who is not pending approval", async () => {
    const u = await newUser();
    expect(await act(u.id, "approve")).toMatchObject({ status: 409, body: { message: "The user you are trying to approve is not pending approval" } });
    expect(await act(u.id, "reject")).toMatchObject({ status: 409, body: { message: "User does not have a pending request" } });
    expect(await stateOf(u.id)).toBe("active");
  });
});

describe("disable_two_factor", () => {
  it("is GitLab's 400 for a user without two-factor authentication, 403 for an administrator", async () => {
    const [u, admin] = await Promise.all([newUser(), newUser({ admin: true })]);
    const disable = (id: number | string) => api("PATCH", `/api/v4/users/${id}/disable_two_factor`, { token: adminToken() });
    expect(await disable(u.id)).toMatchObject({ status: 400, body: { message: "400 Bad request - Two-factor authentication is not enabled for this user" } });
    expect(await disable(admin.id)).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden - Two-factor authentication for admins cannot be disabled via the API. Use the Rails console" },
    });
    expect(await disable(999_999_999)).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
  });
});

describe("who may moderate", () => {
  it.each(["deactivate", "activate", "approve", "reject"])("%s: administrators only, 404 for an unknown user, 400 for a bad id", async (action) => {
    const [u, other] = await Promise.all([newUser(), newUser()]);
    expect(await act(u.id, action, other.token)).toMatchObject({ status: 403 });
    expect((await api("POST", `/api/v4/users/${u.id}/${action}`)).status).toBe(401);
    expect(await act(999_999_999, action)).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect((await act("abc", action)).status).toBe(400);
    expect(await stateOf(u.id)).toBe("active");
  });
});
