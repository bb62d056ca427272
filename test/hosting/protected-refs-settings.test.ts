/**
 * The instance's default branch protection (`PUT /application/settings` `default_branch_protection`,
 * 0–4, and its 17.0 hash `default_branch_protection_defaults`): what new projects' default branches
 * get unless their group has its own. Instance-wide, so on a runtime of this file.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { ownRuntime } from "../support/own-runtime.js";
import { requestAt } from "../support/api.js";

let rt: Awaited<ReturnType<typeof ownRuntime>>;
const call = (method: string, path: string, body?: unknown) => requestAt(rt.runtime.baseUrl, method, path, { token: rt.runtime.bootstrap.token!, body });

beforeAll(async () => {
  rt = await ownRuntime();
});
afterAll(async () => rt.stop());

let n = 0;
async function defaultRule(namespace_id?: number) {
  const created = await call("POST", "/api/v4/projects", { name: `p${++n}`, namespace_id });
  expect(created.status, created.text).toBe(201);
  return (await call("GET", `/api/v4/projects/${created.body.id}/protected_branches`)).body as Array<{ name: string; push_access_levels: Array<{ access_level: number }>; merge_access_levels: Array<{ access_level: number }>; allow_force_push: boolean }>;
}
const levels = (rules: Awaited<ReturnType<typeof defaultRule>>) => rules.map((r) => [r.name, r.push_access_levels[0]!.access_level, r.merge_access_levels[0]!.access_level, r.allow_force_push]);

describe("default_branch_protection", () => {
  it("is GitLab's fully protected until set, and each level gives new projects GitLab's rule", async () => {
    expect((await call("GET", "/api/v4/application/settings")).body).toMatchObject({
      default_branch_protection: 2,
      default_branch_protection_defaults: { allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }], developer_can_initial_push: false },
    });
    expect(levels(await defaultRule())).toEqual([["main", 40, 40, false]]);
    const expected: Record<number, unknown[]> = { 0: [], 1: [["main", 30, 40, false]], 2: [["main", 40, 40, false]], 3: [["main", 40, 30, false]], 4: [["main", 40, 40, false]] };
    for (const level of [0, 1, 2, 3, 4]) {
      const saved = await call("PUT", "/api/v4/application/settings", { default_branch_protection: level });
      expect(saved).toMatchObject({ status: 200, body: { default_branch_protection: level } });
      expect(levels(await defaultRule())).toEqual(expected[level]);
    }
    expect((await call("GET", "/api/v4/application/settings")).body.default_branch_protection_defaults).toEqual({
      allowed_to_push: [{ access_level: 40 }],
      allow_force_push: false,
      allowed_to_merge: [{ access_level: 40 }],
      developer_can_initial_push: true,
    });
    expect(await call("PUT", "/api/v4/application/settings", { default_branch_protection: 7 })).toMatchObject({ status: 400, body: { error: "default_branch_protection does not have a valid value" } });
  });

  it("takes GitLab 17's hash, key by key, and a group's own setting wins over it", async () => {
    const hash = await call("PUT", "/api/v4/application/settings?default_branch_protection_defaults[allowed_to_push][][access_level]=30&default_branch_protection_defaults[allow_force_push]=true");
    expect(hash.status, hash.text).toBe(200);
    expect(hash.body.default_branch_protection_defaults).toMatchObject({ allowed_to_push: [{ access_level: 30 }], allow_force_push: true });
    expect(levels(await defaultRule())).toEqual([["main", 30, 40, true]]);

    const plain = await call("POST", "/api/v4/groups", { name: "plain", path: "plain" });
    expect(plain.body).toMatchObject({ default_branch_protection: 1, default_branch_protection_defaults: { allow_force_push: true } });
    expect(levels(await defaultRule(plain.body.id))).toEqual([["main", 30, 40, true]]);
    const own = await call("POST", "/api/v4/groups", { name: "own", path: "own", default_branch_protection: 2 });
    expect(levels(await defaultRule(own.body.id))).toEqual([["main", 40, 40, false]]);
  });
});
