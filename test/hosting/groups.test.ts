/**
 * Groups as GitLab serves them to python-gitlab: `search` and `skip_groups`, subgroups and
 * descendant groups, sharing a group with another group (and the access its members get from it),
 * `members/all`, `user_ids`, and one member read and changed.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, adminToken, newUser, unique } from "../support/api.js";

type User = Awaited<ReturnType<typeof newUser>>;
type GroupBody = { id: number; name: string; path: string; full_path: string; parent_id: number | null; shared_with_groups?: unknown[] };

async function newGroup(token: string, body: Record<string, unknown> = {}): Promise<GroupBody> {
  const res = await api<GroupBody>("POST", "/api/v4/groups", { token, body: { name: unique("Team"), path: unique("grp"), ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

async function addMember(token: string, kind: "groups" | "projects", id: number, userId: number, level: number) {
  expect((await api("POST", `/api/v4/${kind}/${id}/members`, { token, body: { user_id: userId, access_level: level } })).status).toBe(201);
}

const ids = (body: Array<{ id: number }>) => body.map((g) => g.id);

let owner: User;
let stranger: User;
let parent: GroupBody;
let child: GroupBody;
let grandchild: GroupBody;
let sibling: GroupBody;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([newUser(), newUser()]);
  parent = await newGroup(owner.token, { name: unique("Parent Lab") });
  child = await newGroup(owner.token, { parent_id: parent.id });
  grandchild = await newGroup(owner.token, { parent_id: child.id });
  sibling = await newGroup(owner.token, { parent_id: parent.id });
});

describe("GET /groups with search and skip_groups", () => {
  it("matches name or path in any case, for administrators and members alike", async () => {
    const needle = parent.name.toUpperCase();
    for (const token of [adminToken(), owner.token]) {
      const res = await api<GroupBody[]>("GET", `/api/v4/groups?search=${encodeURIComponent(needle)}`, { token });
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([parent.id]);
    }
    const byPath = await api<GroupBody[]>("GET", `/api/v4/groups?search=${child.path}`, { token: owner.token });
    expect(ids(byPath.body)).toEqual([child.id]);
  });

  it("leaves out skip_groups, bracketed (python-gitlab) or comma-separated", async () => {
    // A signed-in user's list also holds the public groups other test files create meanwhile.
    const ours = (body: GroupBody[]) => ids(body).filter((id) => [parent, child, grandchild, sibling].some((g) => g.id === id));
    const mine = await api<GroupBody[]>("GET", "/api/v4/groups?per_page=100", { token: owner.token });
    expect(ours(mine.body)).toEqual([parent.id, child.id, grandchild.id, sibling.id]);
    const bracketed = await api<GroupBody[]>("GET", `/api/v4/groups?per_page=100&skip_groups[]=${child.id}&skip_groups[]=${sibling.id}`, { token: owner.token });
    expect(ours(bracketed.body)).toEqual([parent.id, grandchild.id]);
    const comma = await api<GroupBody[]>("GET", `/api/v4/groups?per_page=100&skip_groups=${parent.id},${grandchild.id}&search=grp`, { token: adminToken() });
    expect(ids(comma.body)).toEqual(expect.arrayContaining([child.id, sibling.id]));
    expect(ids(comma.body)).not.toContain(parent.id);
    expect(ids(comma.body)).not.toContain(grandchild.id);
  });

  it("refuses a skip_groups that is not a list of ids", async () => {
    expect(await api("GET", "/api/v4/groups?skip_groups=abc", { token: owner.token })).toMatchObject({ status: 400, body: { error: "skip_groups is invalid" } });
    expect((await api("GET", "/api/v4/groups?skip_groups[]=-1", { token: owner.token })).status).toBe(400);
  });
});

describe("GET /groups/:id/subgroups and /descendant_groups", () => {
  it("lists the children, or every descendant, by id", async () => {
    const subgroups = await api<GroupBody[]>("GET", `/api/v4/groups/${parent.id}/subgroups`, { token: owner.token });
    expect(subgroups.status).toBe(200);
    expect(subgroups.headers.get("x-total")).toBe("2");
    expect(subgroups.body.map((g) => [g.id, g.parent_id])).toEqual([[child.id, parent.id], [sibling.id, parent.id]]);
    const descendants = await api<GroupBody[]>("GET", `/api/v4/groups/${encodeURIComponent(parent.full_path)}/descendant_groups`, { token: owner.token });
    expect(ids(descendants.body)).toEqual([child.id, grandchild.id, sibling.id]);
    const filtered = await api<GroupBody[]>("GET", `/api/v4/groups/${parent.id}/descendant_groups?skip_groups[]=${child.id}&search=${grandchild.path}`, { token: owner.token });
    expect(ids(filtered.body)).toEqual([grandchild.id]);
  });

  it("shows a private group's subgroups to nobody else: 404 with or without a token", async () => {
    for (const route of ["subgroups", "descendant_groups"]) {
      expect(await api("GET", `/api/v4/groups/${parent.id}/${route}`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
      expect((await api("GET", `/api/v4/groups/${parent.id}/${route}`)).status).toBe(404);
      expect(await api("GET", `/api/v4/groups/${parent.id}/${route}?per_page=x`, { token: owner.token })).toMatchObject({ status: 400 });
    }
  });

  it("lists only the subgroups the caller can see", async () => {
    const open = await newGroup(owner.token, { visibility: "public" });
    const openChild = await newGroup(owner.token, { parent_id: open.id, visibility: "public" });
    await newGroup(owner.token, { parent_id: open.id });
    const anonymous = await api<GroupBody[]>("GET", `/api/v4/groups/${open.id}/subgroups`);
    expect(ids(anonymous.body)).toEqual([openChild.id]);
  });
});

describe("sharing a group with another group", () => {
  let shared: GroupBody;
  let invited: GroupBody;
  let invitedOwner: User;
  let project: { id: number };
  let nestedProject: { id: number };

  beforeAll(async () => {
    invitedOwner = await newUser();
    shared = await newGroup(owner.token);
    invited = await newGroup(invitedOwner.token);
    await addMember(invitedOwner.token, "groups", invited.id, owner.id, 10);
    const created = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("shared-proj"), namespace_id: shared.id } });
    expect(created.status).toBe(201);
    project = created.body;
    const nested = await newGroup(owner.token, { parent_id: shared.id });
    nestedProject = (await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("nested-proj"), namespace_id: nested.id } })).body;
  });

  it("before the share, the invited group's members cannot see the shared group's project", async () => {
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: invitedOwner.token })).status).toBe(404);
  });

  it("shares (201 with the group's detail) and shows shared_with_groups", async () => {
    const res = await api<GroupBody>("POST", `/api/v4/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: 20, expires_at: "2999-01-01" } });
    expect(res.status).toBe(201);
    const entry = { group_id: invited.id, group_name: invited.name, group_full_path: invited.full_path, group_access_level: 20, expires_at: "2999-01-01" };
    expect(res.body).toMatchObject({ id: shared.id, shared_with_groups: [entry] });
    expect((await api<GroupBody>("GET", `/api/v4/groups/${shared.id}`, { token: owner.token })).body.shared_with_groups).toEqual([entry]);
  });

  it("gives the invited group's direct members the lower of their level and the share's", async () => {
    // invitedOwner is Owner of the invited group, shared at Reporter: reads, cannot manage members.
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: invitedOwner.token })).status).toBe(200);
    const other = await newUser();
    expect((await api("POST", `/api/v4/projects/${project.id}/members`, { token: invitedOwner.token, body: { user_id: other.id, access_level: 10 } })).status).toBe(403);
    expect((await api("GET", `/api/v4/groups/${shared.id}`, { token: invitedOwner.token })).status).toBe(200);
    // A share reaches down: the shared group's subgroups and their projects.
    expect((await api("GET", `/api/v4/projects/${nestedProject.id}`, { token: invitedOwner.token })).status).toBe(200);
    const groups = await api<GroupBody[]>("GET", "/api/v4/groups?per_page=100", { token: invitedOwner.token });
    expect(ids(groups.body)).toEqual(expect.arrayContaining([shared.id, invited.id]));
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: stranger.token })).status).toBe(404);
  });

  it("lists the invited members in members/all, capped, one entry per user at its highest level", async () => {
    const all = await api("GET", `/api/v4/projects/${project.id}/members/all`, { token: owner.token });
    expect(all.status).toBe(200);
    // owner: Owner of the shared group, Guest of the invited one → Owner; invitedOwner: 50 capped at 20.
    expect(all.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level])).toEqual(
      [[owner.id, 50], [invitedOwner.id, 20]].sort((a, b) => a[0]! - b[0]!),
    );
    expect(all.body[0]).toMatchObject({ username: expect.any(String), state: "active", membership_state: "active", expires_at: null });
    const groupAll = await api("GET", `/api/v4/groups/${shared.id}/members/all?user_ids[]=${invitedOwner.id}`, { token: owner.token });
    expect(groupAll.body).toEqual([expect.objectContaining({ id: invitedOwner.id, access_level: 20 })]);
    const direct = await api("GET", `/api/v4/groups/${shared.id}/members`, { token: owner.token });
    expect(direct.body.map((m: { id: number }) => m.id)).toEqual([owner.id]);
  });

  it("refuses: no token 401, a non-Owner 404, a bad level 400, the same share twice 409", async () => {
    const body = { group_id: invited.id, group_access: 30 };
    expect((await api("POST", `/api/v4/groups/${shared.id}/share`, { body })).status).toBe(401);
    const maintainer = await newUser();
    await addMember(owner.token, "groups", shared.id, maintainer.id, 40);
    await addMember(invitedOwner.token, "groups", invited.id, maintainer.id, 10);
    expect(await api("POST", `/api/v4/groups/${shared.id}/share`, { token: maintainer.token, body })).toMatchObject({ status: 404, body: { message: "Not Found" } });
    expect(await api("POST", `/api/v4/groups/${shared.id}/share`, { token: stranger.token, body })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    const hidden = await newGroup(stranger.token);
    expect(await api("POST", `/api/v4/groups/${shared.id}/share`, { token: owner.token, body: { group_id: hidden.id, group_access: 30 } })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await api("POST", `/api/v4/groups/${shared.id}/share`, { token: owner.token, body: { group_id: invited.id, group_access: 35 } })).toMatchObject({ status: 400, body: { error: "group_access does not have a valid value" } });
    expect(await api("POST", `/api/v4/groups/${shared.id}/share`, { token: owner.token, body: { group_access: 30 } })).toMatchObject({ status: 400, body: { error: "group_id is missing" } });
    expect(await api("POST", `/api/v4/groups/${shared.id}/share`, { token: owner.token, body })).toMatchObject({ status: 409, body: { message: "Shared group The group has already been shared with this group" } });
    expect(await api("DELETE", `/api/v4/groups/${shared.id}/share/${invited.id}`, { token: maintainer.token })).toMatchObject({ status: 403 });
  });

  it("unshares (204), after which the access is gone; again is 404", async () => {
    expect((await api("DELETE", `/api/v4/groups/${shared.id}/share/${invited.id}`, { token: owner.token })).status).toBe(204);
    expect((await api<GroupBody>("GET", `/api/v4/groups/${shared.id}`, { token: owner.token })).body.shared_with_groups).toEqual([]);
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: invitedOwner.token })).status).toBe(404);
    expect(await api("DELETE", `/api/v4/groups/${shared.id}/share/${invited.id}`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Group Link Not Found" } });
    expect((await api("DELETE", `/api/v4/groups/${shared.id}/share/abc`, { token: owner.token })).status).toBe(400);
  });

  it("ends with the shared group's deletion, after which the invited group deletes cleanly", async () => {
    const [first, second] = [await newGroup(owner.token), await newGroup(owner.token)];
    expect((await api("POST", `/api/v4/groups/${first.id}/share`, { token: owner.token, body: { group_id: second.id, group_access: 30 } })).status).toBe(201);
    expect((await api("DELETE", `/api/v4/groups/${first.id}`, { token: owner.token })).status).toBe(202);
    expect((await api("DELETE", `/api/v4/groups/${second.id}`, { token: owner.token })).status).toBe(202);
    expect((await api("GET", `/api/v4/groups/${second.id}`, { token: owner.token })).status).toBe(404);
  });

  it("ends with the invited group's deletion", async () => {
    const other = await newGroup(invitedOwner.token);
    await addMember(invitedOwner.token, "groups", other.id, owner.id, 10);
    expect((await api("POST", `/api/v4/groups/${shared.id}/share`, { token: owner.token, body: { group_id: other.id, group_access: 30 } })).status).toBe(201);
    expect((await api("DELETE", `/api/v4/groups/${other.id}`, { token: invitedOwner.token })).status).toBe(202);
    expect((await api<GroupBody>("GET", `/api/v4/groups/${shared.id}`, { token: owner.token })).body.shared_with_groups).toEqual([]);
  });
});

describe("members/all, user_ids and one member", () => {
  it("inherits the parent's members; a direct membership at a higher level wins", async () => {
    const [inherited, both] = await Promise.all([newUser(), newUser()]);
    await addMember(owner.token, "groups", parent.id, inherited.id, 30);
    await addMember(owner.token, "groups", parent.id, both.id, 10);
    await addMember(owner.token, "groups", child.id, both.id, 40);
    const all = await api("GET", `/api/v4/groups/${child.id}/members/all?per_page=100`, { token: inherited.token });
    expect(all.status).toBe(200);
    const levels = Object.fromEntries(all.body.map((m: { id: number; access_level: number }) => [m.id, m.access_level]));
    expect(levels).toEqual({ [owner.id]: 50, [inherited.id]: 30, [both.id]: 40 });
    expect((await api("GET", `/api/v4/groups/${child.id}/members/all`, { token: stranger.token })).status).toBe(404);
    expect((await api("GET", `/api/v4/groups/${child.id}/members/all`)).status).toBe(401);
    expect((await api("GET", `/api/v4/groups/${child.id}/members/all?user_ids=x`, { token: owner.token })).status).toBe(400);
  });

  it("filters direct members by user_ids, ignoring ids that are not members", async () => {
    const res = await api("GET", `/api/v4/groups/${parent.id}/members?user_ids[]=${owner.id}&user_ids[]=99999999`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.map((m: { id: number }) => m.id)).toEqual([owner.id]);
    const comma = await api("GET", `/api/v4/groups/${parent.id}/members?user_ids=${owner.id},${stranger.id}`, { token: owner.token });
    expect(comma.body.map((m: { id: number }) => m.id)).toEqual([owner.id]);
  });

  it("reads and changes one member (Maintainer+), within the actor's own level", async () => {
    const [member, maintainer] = await Promise.all([newUser(), newUser()]);
    await addMember(owner.token, "groups", sibling.id, member.id, 10);
    await addMember(owner.token, "groups", sibling.id, maintainer.id, 40);
    expect(await api("GET", `/api/v4/groups/${sibling.id}/members/${member.id}`, { token: member.token })).toMatchObject({ status: 200, body: { id: member.id, access_level: 10 } });
    expect(await api("GET", `/api/v4/groups/${sibling.id}/members/${stranger.id}`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await api("GET", `/api/v4/groups/${sibling.id}/members/${member.id}`, { token: stranger.token })).status).toBe(404);

    expect(await api("PUT", `/api/v4/groups/${sibling.id}/members/${member.id}`, { token: maintainer.token, body: { access_level: 30, expires_at: "2999-12-31" } })).toMatchObject({ status: 200, body: { access_level: 30, expires_at: "2999-12-31" } });
    expect((await api("PUT", `/api/v4/groups/${sibling.id}/members/${member.id}`, { token: maintainer.token, body: { access_level: 50 } })).status).toBe(403);
    expect((await api("PUT", `/api/v4/groups/${sibling.id}/members/${member.id}`, { token: member.token, body: { access_level: 40 } })).status).toBe(403);
    expect(await api("PUT", `/api/v4/groups/${sibling.id}/members/${member.id}`, { token: owner.token, body: { access_level: 15 } })).toMatchObject({ status: 400, body: { error: "access_level does not have a valid value" } });
    expect(await api("PUT", `/api/v4/groups/${sibling.id}/members/${member.id}`, { token: owner.token, body: {} })).toMatchObject({ status: 400, body: { error: "access_level is missing" } });
    expect((await api("PUT", `/api/v4/groups/${sibling.id}/members/${member.id}`, { body: { access_level: 30 } })).status).toBe(401);
    expect(await api("PUT", `/api/v4/groups/${sibling.id}/members/${member.id}`, { token: owner.token, body: { access_level: 50, expires_at: null } })).toMatchObject({ status: 200, body: { access_level: 50, expires_at: null } });
    expect((await api("GET", `/api/v4/groups/${sibling.id}/members/${member.id}`, { token: owner.token })).body.access_level).toBe(50);
  });
});
