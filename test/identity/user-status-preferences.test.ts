/**
 * A user's status, preferences, last activities and association counts (GitLab's users.md).
 */
import { describe, it, expect } from "vitest";
import { api, adminToken, newUser } from "../support/api.js";
import { addMember, newGroup, newProject } from "../hosting/support.js";
import { docQuery } from "../../functions/platform/db/document.js";
import { resources } from "../../functions/platform/resources.js";

const EMPTY = { emoji: null, availability: null, message: null, message_html: null, clear_status_at: null };

describe("user status", () => {
  it("is empty until set; PUT sets it (default emoji, HTML-escaped message), and anyone reads it by id or username", async () => {
    const u = await newUser();
    expect(await api("GET", "/api/v4/user/status", { token: u.token })).toMatchObject({ status: 200, body: EMPTY });
    const set = await api("PUT", "/api/v4/user/status", { token: u.token, body: { message: "Fish & <chips>", clear_status_after: "1_day" } });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ emoji: "speech_balloon", availability: "not_set", message: "Fish & <chips>", message_html: "Fish &amp; &lt;chips&gt;" });
    const clears = Date.parse(set.body.clear_status_at) - Date.now();
    expect(clears).toBeGreaterThan(23.9 * 3_600_000);
    expect(clears).toBeLessThanOrEqual(24 * 3_600_000);
    for (const who of [u.id, u.username]) expect((await api("GET", `/api/v4/users/${who}/status`)).body).toEqual(set.body);
    expect(await api("GET", "/api/v4/users/no_such_user_here/status")).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
  });

  it("PUT clears what it is not given, PATCH keeps it; nothing left removes the status", async () => {
    const u = await newUser();
    await api("PUT", "/api/v4/user/status", { token: u.token, body: { emoji: "coffee", message: "I crave coffee", availability: "busy" } });
    const patched = await api("PATCH", "/api/v4/user/status", { token: u.token, body: { message: "still" } });
    expect(patched.body).toMatchObject({ emoji: "coffee", message: "still", availability: "busy", clear_status_at: null });
    const put = await api("PUT", "/api/v4/user/status", { token: u.token, body: { emoji: "tea" } });
    expect(put.body).toMatchObject({ emoji: "tea", message: null, availability: "not_set" });
    expect((await api("PATCH", "/api/v4/user/status", { token: u.token, body: { emoji: null } })).body).toEqual(EMPTY);
    expect((await api("GET", "/api/v4/user/status", { token: u.token })).body).toEqual(EMPTY);
  });

  it("refuses bad values and callers without a token", async () => {
    const u = await newUser();
    expect(await api("PUT", "/api/v4/user/status", { token: u.token, body: { message: "x".repeat(101) } })).toMatchObject({ status: 400 });
    expect(await api("PUT", "/api/v4/user/status", { token: u.token, body: { availability: "away" } })).toMatchObject({ status: 400, body: { error: "availability does not have a valid value" } });
    expect(await api("PUT", "/api/v4/user/status", { token: u.token, body: { clear_status_after: "2_days" } })).toMatchObject({ status: 400, body: { error: "clear_status_after does not have a valid value" } });
    expect(await api("PUT", "/api/v4/user/status", { token: u.token, body: { emoji: "<script>" } })).toMatchObject({ status: 400 });
    expect((await api("GET", "/api/v4/user/status")).status).toBe(401);
    expect((await api("PUT", "/api/v4/user/status", { body: { message: "x" } })).status).toBe(401);
  });
});

describe("user preferences", () => {
  it("are GitLab's defaults until changed; PUT changes those given and needs one", async () => {
    const u = await newUser();
    const defaults = { id: u.id, user_id: u.id, view_diffs_file_by_file: false, show_whitespace_in_diffs: true, pass_user_identities_to_ci_jwt: false };
    expect(await api("GET", "/api/v4/user/preferences", { token: u.token })).toMatchObject({ status: 200, body: defaults });
    expect((await api("PUT", "/api/v4/user/preferences", { token: u.token, body: { view_diffs_file_by_file: true } })).body).toEqual({ ...defaults, view_diffs_file_by_file: true });
    expect((await api("PUT", "/api/v4/user/preferences?show_whitespace_in_diffs=false", { token: u.token })).body).toEqual({ ...defaults, view_diffs_file_by_file: true, show_whitespace_in_diffs: false });
    expect((await api("GET", "/api/v4/user/preferences", { token: u.token })).body).toEqual({ ...defaults, view_diffs_file_by_file: true, show_whitespace_in_diffs: false });
    expect(await api("PUT", "/api/v4/user/preferences", { token: u.token, body: {} })).toMatchObject({
      status: 400,
      body: { error: "view_diffs_file_by_file, show_whitespace_in_diffs, pass_user_identities_to_ci_jwt are missing, at least one parameter must be provided" },
    });
    expect(await api("PUT", "/api/v4/user/preferences", { token: u.token, body: { view_diffs_file_by_file: "perhaps" } })).toMatchObject({ status: 400 });
  });
});

describe("GET /user/activities", () => {
  it("lists users by the day their tokens were last used, oldest first, from a day on", async () => {
    const [active, idle, hidden] = await Promise.all([newUser(), newUser(), newUser()]);
    await api("GET", "/api/v4/user", { token: active.token });
    await api("PUT", `/api/v4/users/${hidden.id}`, { token: adminToken(), body: { private_profile: true } });
    await api("GET", "/api/v4/user", { token: hidden.token });
    const today = new Date().toISOString().slice(0, 10);
    // Every page: the instance the tests share has many users active today.
    const everyPage = async (token: string) => {
      const all: Array<{ username: string; last_activity_on: string }> = [];
      for (let page = 1; ; page++) {
        const res = await api("GET", `/api/v4/user/activities?per_page=100&page=${page}`, { token });
        expect(res.status).toBe(200);
        all.push(...res.body);
        if (!res.headers.get("x-next-page")) return all;
      }
    };
    const activities = await everyPage(adminToken());
    const names = activities.map((a) => a.username);
    expect(activities.find((a) => a.username === active.username)).toEqual({ username: active.username, last_activity_on: today, last_activity_at: today });
    expect(names).not.toContain(idle.username);
    expect(names).toContain(hidden.username);
    const days = activities.map((a) => a.last_activity_on);
    expect(days).toEqual([...days].sort());
    // Others do not see private profiles.
    const seenByUser = (await everyPage(active.token)).map((a) => a.username);
    expect(seenByUser).toContain(active.username);
    expect(seenByUser).not.toContain(hidden.username);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await api("GET", `/api/v4/user/activities?from=${tomorrow}`, { token: adminToken() })).body).toEqual([]);
    expect(await api("GET", "/api/v4/user/activities?from=yesterday", { token: adminToken() })).toMatchObject({ status: 400 });
  });

  it("takes a time's UTC day: tomorrow 01:00 at +05:00 is today", async () => {
    const u = await newUser();
    await api("GET", "/api/v4/user", { token: u.token });
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const names: string[] = [];
    for (let page = 1; ; page++) {
      const res = await api("GET", `/api/v4/user/activities?from=${tomorrow}T01:00:00%2B05:00&per_page=100&page=${page}`, { token: adminToken() });
      expect(res.status).toBe(200);
      for (const a of res.body) expect(a.last_activity_on).toBe(today);
      names.push(...res.body.map((a: { username: string }) => a.username));
      if (!res.headers.get("x-next-page")) break;
    }
    expect(names).toContain(u.username);
  });
});

describe("GET /user/activities, a Query of the day range", () => {
  it("finds the day a token's first use of it noted on the user, and small pages walk the range in order without repeats", async () => {
    const [seen, hidden] = await Promise.all([newUser(), newUser()]);
    const today = new Date().toISOString().slice(0, 10);
    const noted = async (id: number) =>
      (
        await docQuery({
          TableName: resources.mainTable(),
          IndexName: "gsi1",
          KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk",
          ExpressionAttributeValues: { ":pk": "ACTIVE_USERS", ":sk": `${today}#${String(id).padStart(12, "0")}` },
        })
      ).Items ?? [];
    expect(await noted(seen.id)).toEqual([]);
    await api("PUT", `/api/v4/users/${hidden.id}`, { token: adminToken(), body: { private_profile: true } });
    await api("GET", "/api/v4/user", { token: seen.token });
    await api("GET", "/api/v4/user", { token: hidden.token });
    expect(await noted(seen.id)).toHaveLength(1);
    const walk = async (token: string) => {
      const all: string[] = [];
      for (let page = 1; ; page++) {
        const res = await api("GET", `/api/v4/user/activities?from=${today}&per_page=3&page=${page}`, { token });
        expect(res.status).toBe(200);
        expect(res.body.length).toBeLessThanOrEqual(3);
        all.push(...res.body.map((a: { username: string; last_activity_on: string }) => `${a.last_activity_on} ${a.username}`));
        if (!res.headers.get("x-next-page")) return { all, total: res.headers.get("x-total") };
      }
    };
    const admin = await walk(adminToken());
    expect(new Set(admin.all).size).toBe(admin.all.length);
    expect(admin.all).toEqual(expect.arrayContaining([`${today} ${seen.username}`, `${today} ${hidden.username}`]));
    // The last page tells the total.
    expect(Number(admin.total)).toBe(admin.all.length);
    const user = await walk(seen.token);
    expect(new Set(user.all).size).toBe(user.all.length);
    expect(user.all).toContain(`${today} ${seen.username}`);
    expect(user.all).not.toContain(`${today} ${hidden.username}`);
  });
});

describe("GET /users/:id/associations_count", () => {
  it("counts the user's direct group and project memberships, for itself or an administrator", async () => {
    const [u, other] = await Promise.all([newUser(), newUser()]);
    const group = await newGroup(other.token);
    const project = await newProject(other.token);
    await addMember(other.token, "groups", group.id, u.id, 30);
    await addMember(other.token, "projects", project.id, u.id, 30);
    await newProject(u.token);
    const expected = { groups_count: 1, projects_count: 2, issues_count: 0, merge_requests_count: 0 };
    expect(await api("GET", `/api/v4/users/${u.id}/associations_count`, { token: u.token })).toMatchObject({ status: 200, body: expected });
    expect((await api("GET", `/api/v4/users/${u.id}/associations_count`, { token: adminToken() })).body).toEqual(expected);
    expect(await api("GET", `/api/v4/users/${u.id}/associations_count`, { token: other.token })).toMatchObject({ status: 403 });
    expect(await api("GET", "/api/v4/users/999999999/associations_count", { token: adminToken() })).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect(await api("GET", "/api/v4/users/999999999/associations_count", { token: u.token })).toMatchObject({ status: 403 });
  });
});
