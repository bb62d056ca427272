/**
 * Project hooks' custom headers and URL variables (secrets, shown by name only, applied at delivery)
 * and resending a logged delivery (GitLab's project_webhooks.md), against a receiver on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHookHarness, type HookHarness } from "./hooks/harness.js";
import { findHook, updateHook } from "../../functions/errortracking/hooks/store.js";

let h: HookHarness;

beforeAll(async () => {
  h = await startHookHarness();
  await h.allowLocalRequests();
}, 180_000);

afterAll(async () => {
  await h?.stop();
});

const test = (hookId: number) => h.call("POST", `${h.hooksPath}/${hookId}/test/error_tracking_events`);
const events = async (hookId: number) => (await h.call("GET", `${h.hooksPath}/${hookId}/events`)).body as Array<{ id: number; url: string; request_headers: Record<string, string>; response_status: string; response_body: string }>;

describe("custom headers", () => {
  it("stay removed when an edit of the hook that began before the removal saves after it", async () => {
    const hook = await h.addHook("/edited");
    const path = `${h.hooksPath}/${hook.id}/custom_headers`;
    expect((await h.call("PUT", `${path}/Authorization`, { value: "Bearer revoked" })).status).toBe(204);
    // The edit has read the hook (with the header); the header is removed; then the edit saves.
    const read = (await findHook(h.project.id, hook.id))!;
    expect((await h.call("DELETE", `${path}/Authorization`)).status).toBe(204);
    const saved = await updateHook(read, { name: "renamed", origin: h.base });
    expect(saved.customHeaders).toEqual({});
    const shown = (await h.call("GET", `${h.hooksPath}/${hook.id}`)).body;
    expect(shown).toMatchObject({ name: "renamed", custom_headers: [] });
  });

  it("are set and removed by key, shown by key only, sent with each delivery and masked in its log", async () => {
    const hook = await h.addHook("/headers");
    const path = `${h.hooksPath}/${hook.id}/custom_headers`;
    expect((await h.call("PUT", `${path}/Authorization`, { value: "Bearer s3cr3t" })).status).toBe(204);
    expect((await h.call("PUT", `${path}/X-Team`, { value: "platform" })).status).toBe(204);
    const shown = await h.call("GET", `${h.hooksPath}/${hook.id}`);
    expect(shown.body.custom_headers).toEqual([{ key: "Authorization" }, { key: "X-Team" }]);
    expect(shown.text).not.toContain("s3cr3t");
    expect((await test(hook.id)).status).toBe(201);
    const [got] = h.receiver.at("/headers");
    expect(got!.headers).toMatchObject({ authorization: "Bearer s3cr3t", "x-team": "platform", "x-gitlab-event": "Error Tracking Hook" });
    const [logged] = await events(hook.id);
    expect(logged!.request_headers).toMatchObject({ Authorization: "[REDACTED]", "X-Team": "[REDACTED]" });
    expect(JSON.stringify(await events(hook.id))).not.toContain("s3cr3t");
    // Setting again replaces the value.
    expect((await h.call("PUT", `${path}/X-Team?value=infra`)).status).toBe(204);
    expect((await h.call("DELETE", `${path}/Authorization`)).status).toBe(204);
    expect((await h.call("GET", `${h.hooksPath}/${hook.id}`)).body.custom_headers).toEqual([{ key: "X-Team" }]);
    expect(await h.call("DELETE", `${path}/Authorization`)).toMatchObject({ status: 404, body: { message: "404 Custom header Not Found" } });
    await test(hook.id);
    const second = h.receiver.at("/headers")[1]!;
    expect(second.headers["x-team"]).toBe("infra");
    expect(second.headers.authorization).toBeUndefined();
  });

  it("refuses what no delivery could send or what would replace a delivery header, GitLab's 422", async () => {
    const hook = await h.addHook("/headers-refused");
    const put = (key: string, value: unknown) => h.call("PUT", `${h.hooksPath}/${hook.id}/custom_headers/${encodeURIComponent(key)}`, { value });
    for (const [key, value] of [["X-Ok", "two\nlines"], ["Bad Key", "v"], ["X-Gitlab-Token", "v"], ["Content-Type", "text/plain"], ["X-Empty", ""]] as const) {
      expect(await put(key, value)).toMatchObject({ status: 422, body: { message: "Illegal key or value" } });
    }
    expect(await h.call("PUT", `${h.hooksPath}/${hook.id}/custom_headers/X-Ok`, {})).toMatchObject({ status: 400, body: { error: "value is missing" } });
    expect((await h.call("GET", `${h.hooksPath}/${hook.id}`)).body.custom_headers).toEqual([]);
  });
});

describe("URL variables", () => {
  it("fill the hook's URL at delivery; a URL naming one that is missing is not sent", async () => {
    const hook = await h.addHook("/vars/{section}");
    expect((await test(hook.id)).status).toBe(422);
    expect(h.receiver.received.filter((r) => r.path.startsWith("/vars/"))).toEqual([]);
    const [refused] = await events(hook.id);
    expect(refused).toMatchObject({ response_status: "internal error", response_body: 'Invalid URL template. Missing keys: ["section"]' });
    const path = `${h.hooksPath}/${hook.id}/url_variables`;
    expect((await h.call("PUT", `${path}/section`, { value: "alpha" })).status).toBe(204);
    const shown = await h.call("GET", `${h.hooksPath}/${hook.id}`);
    expect(shown.body).toMatchObject({ url: h.receiver.url("/vars/{section}"), url_variables: [{ key: "section" }] });
    expect((await test(hook.id)).status).toBe(201);
    expect(h.receiver.at("/vars/alpha")).toHaveLength(1);
    // The log keeps the template, not the secret.
    expect((await events(hook.id))[0]!.url).toBe(h.receiver.url("/vars/{section}"));
    expect(await h.call("PUT", `${path}/bad-key`, { value: "x" })).toMatchObject({ status: 422, body: { message: "Illegal key or value" } });
    expect((await h.call("DELETE", `${path}/section`)).status).toBe(204);
    expect(await h.call("DELETE", `${path}/section`)).toMatchObject({ status: 404, body: { message: "404 URL variable Not Found" } });
  });
});

describe("POST …/hooks/:hook_id/events/:hook_event_id/resend", () => {
  it("sends the logged request data again now, as a new delivery with the first one's Idempotency-Key", async () => {
    const hook = await h.addHook("/resend");
    await test(hook.id);
    const [first] = await events(hook.id);
    const res = await h.call("POST", `${h.hooksPath}/${hook.id}/events/${first!.id}/resend`);
    expect(res).toMatchObject({ status: 201, body: { response_status: 200 } });
    const [a, b] = h.receiver.at("/resend");
    expect(b!.body).toEqual(a!.body);
    expect(b!.headers["idempotency-key"]).toBe(a!.headers["idempotency-key"]);
    expect(b!.headers["x-gitlab-event-uuid"]).not.toBe(a!.headers["x-gitlab-event-uuid"]);
    expect((await events(hook.id)).map((e) => e.id)).toHaveLength(2);
    h.receiver.failNext("/resend", 1);
    expect(await h.call("POST", `${h.hooksPath}/${hook.id}/events/${first!.id}/resend`)).toMatchObject({ status: 201, body: { response_status: 500 } });
    expect(await h.call("POST", `${h.hooksPath}/${hook.id}/events/999999999/resend`)).toMatchObject({ status: 404 });
    expect((await h.call("POST", `${h.hooksPath}/${hook.id}/events/abc/resend`)).status).toBe(400);
  });
});

describe("who may change a hook's headers and variables", () => {
  it("the project's Maintainers: Developers 403, strangers 404", async () => {
    const hook = await h.addHook("/perm");
    const call = (token: string, method: string, path: string, body?: unknown) => fetch(`${h.base}${path}`, { method, headers: { "Private-Token": token, "Content-Type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
    const mkUser = async (name: string) => {
      const u = (await (await call(h.admin, "POST", "/api/v4/users", { username: name, name, email: `${name}@example.com` })).json()) as { id: number };
      const t = (await (await call(h.admin, "POST", `/api/v4/users/${u.id}/personal_access_tokens`, { name: "t", scopes: ["api"] })).json()) as { token: string };
      return { id: u.id, token: t.token };
    };
    const [dev, stranger] = await Promise.all([mkUser("hook_dev"), mkUser("hook_stranger")]);
    await call(h.token, "POST", `/api/v4/projects/${h.project.id}/members`, { user_id: dev.id, access_level: 30 });
    const target = `${h.hooksPath}/${hook.id}/custom_headers/X-A`;
    expect((await call(dev.token, "PUT", target, { value: "v" })).status).toBe(403);
    expect((await call(stranger.token, "PUT", target, { value: "v" })).status).toBe(404);
    expect((await call(dev.token, "DELETE", `${h.hooksPath}/${hook.id}/url_variables/a`)).status).toBe(403);
  });
});
