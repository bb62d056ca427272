/**
 * GitLab's API throttles, enforced. They are instance-wide, so this file runs its own runtime: the
 * shared one's other test files never see a 429. The periods are long (2e9 s, a window that began in
 * 1970 and ends in 2033) so that no window boundary falls inside a test: every count is exact.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { ownRuntime } from "../support/own-runtime.js";
import { requestAt, unique } from "../support/api.js";
import { getItem, tableDefinition } from "../../functions/platform/db/table.js";

const LONG = 2_000_000_000;
let rt: Awaited<ReturnType<typeof ownRuntime>>;
const admin = () => rt.runtime.bootstrap.token!;
const call = (method: string, path: string, token?: string, body?: unknown) => requestAt(rt.runtime.baseUrl, method, path, { token, body });
const settings = (body: Record<string, unknown>) => call("PUT", "/api/v4/application/settings", admin(), body);

/** A user's counter item for the window 0 of `LONG` (as `throttle.ts` keys it). */
const counter = (userId: number) => getItem<{ hits: number; expireAt: number }>(`THROTTLE#${userId}#${LONG}#0`, "COUNT");

async function newUser(): Promise<{ id: number; token: string }> {
  const username = unique("throttled").replace("-", "_");
  const user = await call("POST", "/api/v4/users", admin(), { username, name: username, email: `${username}@example.com` });
  expect(user.status).toBe(201);
  const token = await call("POST", `/api/v4/users/${user.body.id}/personal_access_tokens`, admin(), { name: "t", scopes: ["api"] });
  expect(token.status).toBe(201);
  return { id: user.body.id, token: token.body.token };
}

beforeAll(async () => {
  rt = await ownRuntime();
});
afterAll(async () => rt?.stop());

describe("throttle settings", () => {
  it("shows GitLab's defaults, stores changes, and refuses a limit or period that is not a positive integer", async () => {
    const initial = await call("GET", "/api/v4/application/settings", admin());
    expect(initial.body).toMatchObject({
      throttle_authenticated_api_enabled: false,
      throttle_authenticated_api_requests_per_period: 7200,
      throttle_authenticated_api_period_in_seconds: 3600,
    });
    const saved = await settings({ throttle_authenticated_api_requests_per_period: 500, throttle_authenticated_api_period_in_seconds: "60" });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ throttle_authenticated_api_requests_per_period: 500, throttle_authenticated_api_period_in_seconds: 60, throttle_authenticated_api_enabled: false });

    for (const [field, value] of [
      ["throttle_authenticated_api_requests_per_period", 0],
      ["throttle_authenticated_api_period_in_seconds", -5],
      ["throttle_authenticated_api_requests_per_period", "0"],
    ] as const) {
      const refused = await settings({ throttle_authenticated_api_enabled: true, [field]: value });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: { [field]: ["must be greater than 0"] } });
    }
    for (const [field, value] of [
      ["throttle_authenticated_api_requests_per_period", 1.5],
      ["throttle_authenticated_api_period_in_seconds", "ten"],
      ["throttle_authenticated_api_enabled", "maybe"],
    ] as const) {
      const refused = await settings({ [field]: value });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: `${field} is invalid` });
    }
    // Nothing of a refused save was kept.
    const after = await call("GET", "/api/v4/application/settings", admin());
    expect(after.body).toMatchObject({ throttle_authenticated_api_enabled: false, throttle_authenticated_api_requests_per_period: 500, throttle_authenticated_api_period_in_seconds: 60 });
    // The rate limits of requests without a token are not offered (not enforced here): as a setting
    // this service does not declare, it is dropped, as Grape drops undeclared parameters.
    const ignored = await settings({ throttle_unauthenticated_api_enabled: true });
    expect(ignored.status).toBe(200);
    expect(ignored.body).not.toHaveProperty("throttle_unauthenticated_api_enabled");
  });
});

describe("the authenticated API throttle", () => {
  it("refuses a user's requests past the limit with Rack::Attack's answer, leaves other users alone, and lifts when disabled", async () => {
    const [alice, bob] = [await newUser(), await newUser()];
    expect((await settings({ throttle_authenticated_api_enabled: true, throttle_authenticated_api_requests_per_period: 3, throttle_authenticated_api_period_in_seconds: LONG })).status).toBe(200);

    for (let i = 0; i < 3; i++) expect((await call("GET", "/api/v4/user", alice.token)).status).toBe(200);
    const refused = await call("POST", "/api/v4/projects", alice.token, { name: "over-the-limit" });
    expect(refused.status).toBe(429);
    expect(refused.text).toBe("Retry later\n");
    expect(refused.headers.get("content-type")).toMatch(/^text\/plain/);
    const now = Math.floor(Date.now() / 1000);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(LONG - now - 60);
    expect(retryAfter).toBeLessThanOrEqual(LONG - now + 60);
    // The refused request created nothing, and a refused request counts too (as with Rack::Attack).
    expect((await call("GET", "/api/v4/user", alice.token)).status).toBe(429);
    // The counter's item expires by TTL a minute after its window.
    expect(await counter(alice.id)).toMatchObject({ hits: 5, expireAt: LONG + 60 });
    expect(tableDefinition.ttl).toBe("expireAt");

    // Another user has a count of its own.
    expect((await call("GET", "/api/v4/user", bob.token)).status).toBe(200);

    // The administrator's own requests count as well: one so far, the one below.
    expect((await settings({ throttle_authenticated_api_enabled: false })).status).toBe(200);
    const lifted = await call("GET", "/api/v4/user", alice.token);
    expect(lifted.status).toBe(200);
    expect(lifted.body.id).toBe(alice.id);
    expect((await call("GET", `/api/v4/projects?search=over-the-limit`, admin())).body).toEqual([]);
  });
});
