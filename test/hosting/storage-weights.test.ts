import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { ownRuntime } from "../support/own-runtime.js";
import { commitSubjects, fsck, repoPaths } from "../support/git.js";
import { pickWeighted } from "../../functions/identity/domain/settings.js";

let rt: Awaited<ReturnType<typeof ownRuntime>>;
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${rt.runtime.baseUrl}${path}`, {
    method,
    headers: { "Private-Token": rt.runtime.bootstrap.token!, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  rt = await ownRuntime();
});
afterAll(async () => rt.stop());

async function storageOfNewProject(name: string): Promise<string> {
  const created = await call("POST", "/api/v4/projects", { name, initialize_with_readme: true });
  expect(created.status).toBe(201);
  return created.body.repository_storage;
}

describe("repository_storages_weighted", () => {
  it("puts new repositories only on storages with weight, each replica of a cluster included", async () => {
    await call("PUT", "/api/v4/application/settings", { repository_storages_weighted: { default: 0, secondary: 100, cluster: 0 } });
    expect(await storageOfNewProject("on-secondary-1")).toBe("secondary");
    expect(await storageOfNewProject("on-secondary-2")).toBe("secondary");
    await call("PUT", "/api/v4/application/settings", { repository_storages_weighted: { secondary: 0, cluster: 100 } });
    const created = await call("POST", "/api/v4/projects", { name: "on-cluster", initialize_with_readme: true });
    expect(created.body.repository_storage).toBe("cluster");
    const replicas = repoPaths("cluster", "project", created.body.id);
    expect(replicas).toHaveLength(3);
    for (const dir of replicas) {
      fsck(dir);
      expect(commitSubjects(dir)).toEqual(["Initial commit"]);
    }
  });

  it("creates a group wiki repository on every replica of a cluster chosen by the weights, on its first page", async () => {
    await call("PUT", "/api/v4/application/settings", { repository_storages_weighted: { default: 0, secondary: 0, cluster: 100 } });
    const group = await call("POST", "/api/v4/groups", { name: "wiki-on-cluster", path: "wiki-on-cluster" });
    const page = await call("POST", `/api/v4/groups/${group.body.id}/wikis`, { title: "Hello World", content: "# Hi\n" });
    expect(page.status).toBe(201);
    await call("PUT", "/api/v4/application/settings", { repository_storages_weighted: { default: 100, cluster: 0 } });
    expect((await call("POST", `/api/v4/groups/${group.body.id}/wikis`, { title: "Second", content: "2" })).status).toBe(201);
    for (const replica of repoPaths("cluster", "group-wiki", group.body.id)) {
      fsck(replica);
      expect(commitSubjects(replica)).toEqual(["Create Second", "Create Hello World"]);
    }
  });

  it("falls back to default when every weight is zero", async () => {
    await call("PUT", "/api/v4/application/settings", { repository_storages_weighted: { default: 0, secondary: 0, cluster: 0 } });
    expect(await storageOfNewProject("all-zero")).toBe("default");
    const settings = await call("GET", "/api/v4/application/settings");
    expect(settings.body.repository_storages_weighted).toEqual({ default: 0, secondary: 0, cluster: 0 });
  });

  it("picks in proportion to the weights", () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 20_000; i++) {
      const picked = pickWeighted({ a: 75, b: 25, c: 0 }, [], random)!;
      counts[picked] = (counts[picked] ?? 0) + 1;
    }
    expect(counts.c).toBe(0);
    expect(counts.a! / 20_000).toBeGreaterThan(0.72);
    expect(counts.a! / 20_000).toBeLessThan(0.78);
    expect(pickWeighted({ a: 100, b: 10 }, ["a"], random)).toBe("b");
  });
});
