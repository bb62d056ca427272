/**
 * GitLab's `name_with_namespace` in every view of a project: the namespace's human name (a group's
 * full name, `Parent / Child`, or the user's name), then the project's name, never paths; and the
 * group's `full_name` it starts with. Renames and transfers reach every project below.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { adminToken, api, newUser, unique } from "../support/api.js";
import { otherStorage, storageOf, waitForMove } from "../moves/support.js";
import { baseUrl } from "../support/api.js";
import { getItem, putItem } from "../../functions/platform/db/table.js";
import { containerKey } from "../../functions/hosting/domain/keys.js";

let owner: Awaited<ReturnType<typeof newUser>>;
const as = (token: string) => ({ token });
const nameOf = async (id: number, token = owner.token) => (await api("GET", `/api/v4/projects/${id}`, as(token))).body.name_with_namespace as string;

async function group(name: string, parentId?: number) {
  const res = await api("POST", "/api/v4/groups", { ...as(owner.token), body: { name, path: unique("nwn"), ...(parentId ? { parent_id: parentId } : {}) } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; full_name: string; full_path: string };
}

async function project(name: string, namespaceId?: number, token = owner.token) {
  const res = await api("POST", "/api/v4/projects", { ...as(token), body: { name, path: unique("p"), initialize_with_readme: true, ...(namespaceId ? { namespace_id: namespaceId } : {}) } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; name_with_namespace: string; path_with_namespace: string };
}

beforeAll(async () => {
  owner = await newUser();
});

describe("name_with_namespace", () => {
  it("is the group's full name and the project's name, in the project, its lists and its forks", async () => {
    const platform = await group("Platform Team");
    expect(platform.full_name).toBe("Platform Team");
    const backend = await group("Backend Services", platform.id);
    expect(backend.full_name).toBe("Platform Team / Backend Services");
    expect((await api("GET", `/api/v4/groups/${backend.id}`, as(owner.token))).body.full_name).toBe("Platform Team / Backend Services");

    const api1 = await project("api", platform.id);
    expect(api1.name_with_namespace).toBe("Platform Team / api");
    const svc = await project("Billing Service", backend.id);
    expect(svc.name_with_namespace).toBe("Platform Team / Backend Services / Billing Service");
    expect(await nameOf(svc.id)).toBe("Platform Team / Backend Services / Billing Service");

    const listed = await api("GET", `/api/v4/projects?membership=true&search=Billing`, as(owner.token));
    expect(listed.body.map((p: { name_with_namespace: string }) => p.name_with_namespace)).toContain("Platform Team / Backend Services / Billing Service");
    const simple = await api("GET", `/api/v4/projects?membership=true&simple=true&search=Billing`, as(owner.token));
    expect(simple.body.map((p: { name_with_namespace: string }) => p.name_with_namespace)).toContain("Platform Team / Backend Services / Billing Service");

    const fork = await api("POST", `/api/v4/projects/${api1.id}/fork`, { ...as(owner.token), body: { namespace_id: backend.id } });
    expect(fork.status, fork.text).toBe(201);
    expect(fork.body.name_with_namespace).toBe("Platform Team / Backend Services / api");
    expect(fork.body.forked_from_project.name_with_namespace).toBe("Platform Team / api");
  });

  it("is the user's name for a personal project, in the project and in a storage move's project", async () => {
    const user = await newUser();
    const userName = (await api("GET", `/api/v4/users/${user.id}`, as(adminToken()))).body.name as string;
    const mine = await project("x", undefined, user.token);
    expect(mine.name_with_namespace).toBe(`${userName} / x`);
    expect(await nameOf(mine.id, user.token)).toBe(`${userName} / x`);

    const source = (await storageOf("project", mine.id))!;
    const scheduled = await api("POST", `/api/v4/projects/${mine.id}/repository_storage_moves`, { ...as(adminToken()), body: { destination_storage_name: otherStorage(source) } });
    expect(scheduled.status, scheduled.text).toBe(201);
    expect(scheduled.body.project.name_with_namespace).toBe(`${userName} / x`);
    const done = await waitForMove({ baseUrl: baseUrl(), token: adminToken() }, "project", scheduled.body.id);
    expect(done.project.name_with_namespace).toBe(`${userName} / x`);
  });

  it("follows a group's rename and a transfer to every project below, and a user's rename", async () => {
    const top = await group("Old Name");
    const sub = await group("Sub Team", top.id);
    const inTop = await project("one", top.id);
    const inSub = await project("two", sub.id);

    const renamed = await api("PUT", `/api/v4/groups/${top.id}`, { ...as(owner.token), body: { name: "New Name" } });
    expect(renamed).toMatchObject({ status: 200, body: { name: "New Name", full_name: "New Name" } });
    expect((await api("GET", `/api/v4/groups/${sub.id}`, as(owner.token))).body.full_name).toBe("New Name / Sub Team");
    expect(await nameOf(inTop.id)).toBe("New Name / one");
    expect(await nameOf(inSub.id)).toBe("New Name / Sub Team / two");
    // The project's namespace object follows too.
    expect((await api("GET", `/api/v4/projects/${inSub.id}`, as(owner.token))).body.namespace.name).toBe("Sub Team");

    const moved = await api("POST", `/api/v4/groups/${sub.id}/transfer`, { ...as(owner.token), body: {} });
    expect(moved.status, moved.text).toBe(201);
    expect((await api("GET", `/api/v4/groups/${sub.id}`, as(owner.token))).body.full_name).toBe("Sub Team");
    expect(await nameOf(inSub.id)).toBe("Sub Team / two");

    const user = await newUser();
    const mine = await project("y", undefined, user.token);
    expect((await api("PUT", `/api/v4/users/${user.id}`, { ...as(adminToken()), body: { name: "Renamed Person" } })).status).toBe(200);
    expect(await nameOf(mine.id, user.token)).toBe("Renamed Person / y");
  });

  it("keeps the parent groups in a subgroup written before full names were kept, and in its projects", async () => {
    const top = await group("Top Team");
    const sub = await group("Sub Team", top.id);
    const inTop = await project("one", top.id);
    const inSub = await project("two", sub.id);
    // As an older instance wrote them: no full name on the group items, nor on the projects' namespaces.
    for (const id of [top.id, sub.id]) {
      const { fullName: _g, ...old } = (await getItem<{ pk: string; sk: string; fullName?: string }>(containerKey("group", id).pk, containerKey("group", id).sk))!;
      await putItem(old);
    }
    for (const id of [inTop.id, inSub.id]) {
      const item = (await getItem<{ pk: string; sk: string; namespace: Record<string, unknown> }>(containerKey("project", id).pk, containerKey("project", id).sk))!;
      const { fullName: _n, ...namespace } = item.namespace;
      await putItem({ ...item, namespace });
    }
    const topPath = top.full_path;
    expect((await api("GET", `/api/v4/groups/${top.id}`, as(owner.token))).body.full_name).toBe("Top Team");
    expect((await api("GET", `/api/v4/groups/${sub.id}`, as(owner.token))).body.full_name).toBe(`${topPath} / Sub Team`);
    expect(await nameOf(inTop.id)).toBe("Top Team / one");
    expect(await nameOf(inSub.id)).toBe(`${topPath} / Sub Team / two`);
  });
});
