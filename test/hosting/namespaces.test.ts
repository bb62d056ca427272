import { describe, it, expect, beforeAll } from "vitest";
import { api, adminToken, newUser, unique } from "../support/api.js";
import { USER_NAMESPACE_ID_BASE } from "../../functions/hosting/domain/namespaces.js";

type NamespaceBody = { id: number; kind: string; path: string; full_path: string; parent_id: number | null };

let owner: Awaited<ReturnType<typeof newUser>>;
let group: { id: number; full_path: string };
let sub: { id: number; full_path: string };

async function newGroup(token: string, body: Record<string, unknown>) {
  const res = await api("POST", "/api/v4/groups", { token, body: { name: "N", path: unique("ns"), ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

beforeAll(async () => {
  owner = await newUser();
  group = await newGroup(owner.token, { visibility: "private" });
  sub = await newGroup(owner.token, { parent_id: group.id, visibility: "private" });
});

const ids = (body: NamespaceBody[]) => body.map((n) => n.id);

describe("GET /namespaces", () => {
  it("lists the caller's groups and its own namespace, by id, with GitLab's entity", async () => {
    const res = await api<NamespaceBody[]>("GET", "/api/v4/namespaces", { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.body).toEqual([
      expect.objectContaining({ id: group.id, kind: "group", full_path: group.full_path, parent_id: null }),
      expect.objectContaining({ id: sub.id, kind: "group", full_path: sub.full_path, parent_id: group.id }),
      { id: USER_NAMESPACE_ID_BASE + owner.id, name: owner.username, path: owner.username, kind: "user", full_path: owner.username, parent_id: null, avatar_url: null, web_url: expect.stringMatching(new RegExp(`/${owner.username}$`)) },
    ]);
    const secondPage = await api<NamespaceBody[]>("GET", "/api/v4/namespaces?per_page=2&page=2", { token: owner.token });
    expect(ids(secondPage.body)).toEqual([USER_NAMESPACE_ID_BASE + owner.id]);
  });

  it("filters by search, owned_only and top_level_only", async () => {
    const member = await newUser();
    await api("POST", `/api/v4/groups/${group.id}/members`, { token: owner.token, body: { user_id: member.id, access_level: 30 } });
    const all = await api<NamespaceBody[]>("GET", "/api/v4/namespaces", { token: member.token });
    expect(ids(all.body)).toEqual([group.id, USER_NAMESPACE_ID_BASE + member.id]);
    const owned = await api<NamespaceBody[]>("GET", "/api/v4/namespaces?owned_only=true", { token: member.token });
    expect(ids(owned.body)).toEqual([USER_NAMESPACE_ID_BASE + member.id]);
    const search = await api<NamespaceBody[]>("GET", `/api/v4/namespaces?search=${owner.username.toUpperCase()}`, { token: owner.token });
    expect(search.body.map((n) => n.kind)).toEqual(["user"]);
    const top = await api<NamespaceBody[]>("GET", "/api/v4/namespaces?top_level_only=true", { token: owner.token });
    expect(ids(top.body)).toEqual([group.id, USER_NAMESPACE_ID_BASE + owner.id]);
  });

  it("shows an administrator every group, then every user's namespace, across pages", async () => {
    const search = await api<NamespaceBody[]>("GET", `/api/v4/namespaces?search=${owner.username}`, { token: adminToken() });
    expect(ids(search.body)).toEqual([USER_NAMESPACE_ID_BASE + owner.id]);
    // Other files create and delete groups and users meanwhile, so pages may overlap or skip at their
    // edges: each page is checked on its own, the whole walk for its order of kinds.
    const seen: NamespaceBody[] = [];
    for (let page = 1; ; page++) {
      const res = await api<NamespaceBody[]>("GET", `/api/v4/namespaces?per_page=7&page=${page}`, { token: adminToken() });
      expect(ids(res.body)).toEqual([...ids(res.body)].sort((a, b) => a - b));
      seen.push(...res.body);
      if (!res.headers.get("x-next-page")) break;
    }
    const kinds = seen.map((n) => n.kind);
    expect(kinds.indexOf("user")).toBe(kinds.lastIndexOf("group") + 1);
    expect(ids(seen)).toEqual(expect.arrayContaining([group.id, sub.id]));
  });

  it("needs authentication and refuses bad parameters", async () => {
    expect(await api("GET", "/api/v4/namespaces")).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect((await api("GET", "/api/v4/namespaces?owned_only=maybe", { token: owner.token })).status).toBe(400);
    expect((await api("GET", "/api/v4/namespaces?per_page=0", { token: owner.token })).status).toBe(400);
  });
});

describe("GET /namespaces/:id", () => {
  it("finds a namespace by the id the list shows or by its full path, and projects are created there by that id", async () => {
    const mine = await api("GET", `/api/v4/namespaces/${USER_NAMESPACE_ID_BASE + owner.id}`, { token: owner.token });
    expect(mine.body).toMatchObject({ kind: "user", path: owner.username });
    expect((await api("GET", `/api/v4/namespaces/${owner.username.toUpperCase()}`, { token: owner.token })).body.id).toBe(USER_NAMESPACE_ID_BASE + owner.id);
    expect((await api("GET", `/api/v4/namespaces/${encodeURIComponent(sub.full_path)}`, { token: owner.token })).body).toMatchObject({ id: sub.id, kind: "group", parent_id: group.id });

    const personal = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("p"), namespace_id: mine.body.id } });
    expect(personal.body.namespace).toMatchObject({ id: mine.body.id, kind: "user" });
    const inGroup = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("p"), namespace_id: sub.id } });
    expect(inGroup.body.namespace).toMatchObject({ id: sub.id, kind: "group" });
    // Another user's namespace is not a place to create in, and not visible.
    const other = await newUser();
    expect((await api("POST", "/api/v4/projects", { token: other.token, body: { name: unique("p"), namespace_id: mine.body.id } })).status).toBe(404);
    expect(await api("GET", `/api/v4/namespaces/${mine.body.id}`, { token: other.token })).toMatchObject({ status: 404, body: { message: "404 Namespace Not Found" } });
    expect((await api("GET", `/api/v4/namespaces/${sub.id}`, { token: other.token })).status).toBe(404);
    expect((await api("GET", `/api/v4/namespaces/${mine.body.id}`, { token: adminToken() })).status).toBe(200);
  });

  it("answers 401 without a token and 404 for no such namespace", async () => {
    expect((await api("GET", `/api/v4/namespaces/${group.id}`)).status).toBe(401);
    expect((await api("GET", `/api/v4/namespaces/${unique("nobody")}`, { token: owner.token })).status).toBe(404);
    expect((await api("GET", `/api/v4/namespaces/${USER_NAMESPACE_ID_BASE * 2}`, { token: adminToken() })).status).toBe(404);
  });
});

describe("GET /namespaces/:id/exists", () => {
  it("tells whether a path is taken, at the top level or in a parent, and suggests a free one", async () => {
    const taken = await api("GET", `/api/v4/namespaces/${owner.username}/exists`, { token: owner.token });
    expect(taken.body).toEqual({ exists: true, suggests: [`${owner.username}1`] });
    const subPath = sub.full_path.split("/").pop()!;
    expect((await api("GET", `/api/v4/namespaces/${subPath}/exists?parent_id=${group.id}`, { token: owner.token })).body).toEqual({ exists: true, suggests: [`${subPath}1`] });
    expect((await api("GET", `/api/v4/namespaces/${subPath}/exists`, { token: owner.token })).body).toEqual({ exists: false, suggests: [] });
    await newGroup(owner.token, { path: `${group.full_path}1` });
    expect((await api("GET", `/api/v4/namespaces/${group.full_path}/exists`, { token: owner.token })).body).toEqual({ exists: true, suggests: [`${group.full_path}2`] });
    expect((await api("GET", `/api/v4/namespaces/${unique("free")}/exists`, { token: owner.token })).body).toEqual({ exists: false, suggests: [] });
  });

  it("needs authentication and an integer parent_id", async () => {
    expect((await api("GET", `/api/v4/namespaces/${owner.username}/exists`)).status).toBe(401);
    expect((await api("GET", `/api/v4/namespaces/${owner.username}/exists?parent_id=abc`, { token: owner.token })).status).toBe(400);
  });
});

describe("GET /projects/:id/groups", () => {
  it("lists the project's group and its ancestors, filtered by skip_groups and search", async () => {
    const project = (await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("p"), namespace_id: sub.id } })).body;
    const list = async (query = "", token = owner.token) => api(`GET`, `/api/v4/projects/${project.id}/groups${query}`, { token });
    const all = await list();
    expect(all.body).toEqual([
      { id: group.id, web_url: expect.stringMatching(/\/groups\//), name: "N", avatar_url: null, full_name: expect.any(String), full_path: group.full_path },
      expect.objectContaining({ id: sub.id, full_path: sub.full_path }),
    ]);
    expect((await list(`?skip_groups=${group.id}`)).body.map((g: { id: number }) => g.id)).toEqual([sub.id]);
    expect((await list(`?skip_groups[]=${group.id}&skip_groups[]=${sub.id}`)).body).toEqual([]);
    expect((await list(`?search=${sub.full_path.split("/").pop()}&with_shared=true`)).body.map((g: { id: number }) => g.id)).toEqual([sub.id]);
    const personal = (await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("p") } })).body;
    expect((await api("GET", `/api/v4/projects/${personal.id}/groups`, { token: owner.token })).body).toEqual([]);
  });

  it("shows only the groups the caller can see, and refuses bad input", async () => {
    const outer = await newGroup(owner.token, { visibility: "private" });
    const inner = await newGroup(owner.token, { parent_id: outer.id, visibility: "private" });
    const project = (await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("p"), namespace_id: inner.id } })).body;
    const member = await newUser();
    await api("POST", `/api/v4/projects/${project.id}/members`, { token: owner.token, body: { user_id: member.id, access_level: 20 } });
    expect((await api("GET", `/api/v4/projects/${project.id}/groups`, { token: member.token })).body).toEqual([]);
    expect((await api("GET", `/api/v4/projects/${project.id}/groups`)).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${project.id}/groups?skip_groups=a,b`, { token: owner.token })).status).toBe(400);
    expect((await api("GET", `/api/v4/projects/${project.id}/groups?skip_groups[]=x`, { token: owner.token })).status).toBe(400);
  });
});
