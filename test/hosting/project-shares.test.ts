/**
 * Sharing a project with a group (`POST /projects/:id/share`, `DELETE …/share/:group_id`) and what
 * reads it: access checks, the project's `shared_with_groups`, `members/all`, the project lists of the
 * group's members, `GET /groups/:id/projects/shared`, the invited groups of projects and groups,
 * `GET /groups/:id/groups/shared` and the groups a project may be shared with.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, adminToken, newUser } from "../support/api.js";
import { addMember, idsOf, newGroup, newProject, projectRoles, share, type User } from "./support.js";

let owner: User;
let team: { id: number; name: string; full_path: string };
/** Direct members of `team`: Owner (capped by the share) and Guest. */
let teamOwner: User;
let teamGuest: User;
let home: { id: number };
let project: { id: number };
let roles: Awaited<ReturnType<typeof projectRoles>>;

beforeAll(async () => {
  [owner, teamOwner, teamGuest] = await Promise.all([newUser(), newUser(), newUser()]);
  team = await newGroup(teamOwner.token);
  await addMember(teamOwner.token, "groups", team.id, teamGuest.id, 10);
  await addMember(teamOwner.token, "groups", team.id, owner.id, 10);
  home = await newGroup(owner.token);
  project = await newProject(owner.token, { namespace_id: home.id });
  roles = await projectRoles(owner.token, project.id);
  // The project's Maintainer may share with `team` once it belongs to it.
  await addMember(teamOwner.token, "groups", team.id, roles.maintainer.id, 10);
});

const shareUrl = (id = project.id) => `/api/v4/projects/${id}/share`;

describe("sharing a project with a group", () => {
  it("before the share, the group's members cannot see the private project", async () => {
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: teamOwner.token })).status).toBe(404);
  });

  it("shares (201 with GitLab's link) and gives the group's direct members the lower of their level and the share's", async () => {
    const res = await api("POST", shareUrl(), { token: roles.maintainer.token, body: { group_id: team.id, group_access: 30, expires_at: "2999-01-01" } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), project_id: project.id, group_id: team.id, group_access: 30, expires_at: "2999-01-01" });
    const seen = await api("GET", `/api/v4/projects/${project.id}`, { token: teamOwner.token });
    expect(seen.status).toBe(200);
    expect(seen.body.shared_with_groups).toEqual([{ group_id: team.id, group_name: team.name, group_full_path: team.full_path, group_access_level: 30, expires_at: "2999-01-01" }]);
    // Owner of the group, capped at Developer: pushes, does not manage members.
    expect((await api("POST", `/api/v4/projects/${project.id}/members`, { token: teamOwner.token, body: { user_id: teamGuest.id, access_level: 10 } })).status).toBe(403);
    expect((await api("GET", `/api/v4/projects/${project.id}/members/all/${teamOwner.id}`, { token: roles.guest.token })).body.access_level).toBe(30);
    expect((await api("GET", `/api/v4/projects/${project.id}/members/all/${teamGuest.id}`, { token: roles.guest.token })).body.access_level).toBe(10);
    const all = await api("GET", `/api/v4/projects/${project.id}/members/all?per_page=100`, { token: teamGuest.token });
    expect(idsOf(all.body)).toEqual(expect.arrayContaining([teamOwner.id, teamGuest.id]));
  });

  it("lists the shared project for the group's members and under the group's shared projects", async () => {
    const mine = await api("GET", "/api/v4/projects?membership=true&per_page=100", { token: teamGuest.token });
    expect(idsOf(mine.body)).toContain(project.id);
    expect(mine.body.find((p: { id: number }) => p.id === project.id).shared_with_groups).toHaveLength(1);
    const shared = await api("GET", `/api/v4/groups/${team.id}/projects/shared`, { token: teamGuest.token });
    expect(shared).toMatchObject({ status: 200, body: [{ id: project.id, shared_with_groups: [{ group_id: team.id }] }] });
    expect(shared.headers.get("x-total")).toBe("1");
    expect((await api("GET", `/api/v4/groups/${team.id}/projects/shared?simple=true`, { token: teamGuest.token })).body[0].shared_with_groups).toBeUndefined();
    expect((await api("GET", `/api/v4/groups/${team.id}/projects/shared?visibility=public`, { token: teamGuest.token })).body).toEqual([]);
    expect((await api("GET", `/api/v4/groups/${team.id}/projects/shared?min_access_level=30`, { token: teamGuest.token })).body).toEqual([]);
    expect((await api("GET", `/api/v4/groups/${team.id}/projects/shared?order_by=size`, { token: teamGuest.token })).status).toBe(400);
    // A stranger sees neither the private group nor, in another group's list, the private project.
    expect((await api("GET", `/api/v4/groups/${team.id}/projects/shared`, { token: roles.stranger.token })).status).toBe(404);
  });

  it("reaches a private personal project in its owner's project list", async () => {
    const personal = await newProject(roles.developer.token);
    await addMember(teamOwner.token, "groups", team.id, roles.developer.id, 10);
    await share(roles.developer.token, personal.id, team.id, 20);
    const listed = await api("GET", `/api/v4/users/${roles.developer.id}/projects`, { token: teamGuest.token });
    expect(idsOf(listed.body)).toEqual([personal.id]);
    expect((await api("GET", `/api/v4/users/${roles.developer.id}/projects`, { token: roles.stranger.token })).body).toEqual([]);
  });

  it("refuses in GitLab's order: below Maintainer 403, Owner access from a Maintainer 403, a group the caller is not in 404, its own group 409, twice 409", async () => {
    const other = await newGroup(roles.stranger.token);
    const body = { group_id: team.id, group_access: 20 };
    expect((await api("POST", shareUrl(), { body })).status).toBe(401);
    expect(await api("POST", shareUrl(), { token: roles.developer.token, body })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await api("POST", shareUrl(), { token: roles.stranger.token, body })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await api("POST", shareUrl(), { token: roles.maintainer.token, body: { group_id: other.id, group_access: 50 } })).toMatchObject({ status: 403 });
    expect(await api("POST", shareUrl(), { token: roles.maintainer.token, body: { group_id: other.id, group_access: 20 } })).toMatchObject({ status: 404, body: { message: "Not Found" } });
    expect(await api("POST", shareUrl(), { token: roles.maintainer.token, body: { group_id: 99999999, group_access: 20 } })).toMatchObject({ status: 404, body: { message: "Not Found" } });
    expect(await api("POST", shareUrl(), { token: owner.token, body: { group_id: home.id, group_access: 20 } })).toMatchObject({
      status: 409,
      body: { message: "Project cannot be shared with the group it is in or one of its ancestors." },
    });
    expect(await api("POST", shareUrl(), { token: roles.maintainer.token, body })).toMatchObject({ status: 409, body: { message: "Group already shared with this group" } });
    expect(await api("POST", shareUrl(), { token: roles.maintainer.token, body: { group_id: team.id } })).toMatchObject({ status: 400, body: { error: "group_access is missing" } });
    expect(await api("POST", shareUrl(), { token: roles.maintainer.token, body: { group_id: team.id, group_access: 25 } })).toMatchObject({ status: 400, body: { error: "group_access does not have a valid value" } });
    expect((await api("POST", shareUrl(), { token: roles.maintainer.token, body: { group_id: team.id, group_access: 20, expires_at: "soon" } })).status).toBe(400);
  });

  it("refuses every share while the namespace's share_with_group_lock is on (400)", async () => {
    const locked = await newGroup(owner.token, { share_with_group_lock: true });
    expect((await api("GET", `/api/v4/groups/${locked.id}`, { token: owner.token })).body.share_with_group_lock).toBe(true);
    const sub = await newGroup(owner.token, { parent_id: locked.id });
    const inside = await newProject(owner.token, { namespace_id: sub.id });
    expect(await api("POST", shareUrl(inside.id), { token: owner.token, body: { group_id: team.id, group_access: 10 } })).toMatchObject({ status: 400, body: { message: "The project sharing with group is disabled" } });
    expect((await api("GET", `/api/v4/projects/${inside.id}/share_locations`, { token: owner.token })).body).toEqual([]);
    expect((await api("PUT", `/api/v4/groups/${locked.id}`, { token: owner.token, body: { share_with_group_lock: false } })).body.share_with_group_lock).toBe(false);
    expect((await api("POST", shareUrl(inside.id), { token: owner.token, body: { group_id: team.id, group_access: 10 } })).status).toBe(201);
  });

  it("unshares (204) for Maintainers: the access is gone; again, or a group never shared, 404", async () => {
    const extra = await newProject(owner.token, { namespace_id: home.id });
    await share(owner.token, extra.id, team.id, 20);
    expect((await api("GET", `/api/v4/projects/${extra.id}`, { token: teamGuest.token })).status).toBe(200);
    expect((await api("DELETE", `${shareUrl(extra.id)}/${team.id}`, { token: teamGuest.token })).status).toBe(403);
    expect((await api("DELETE", `${shareUrl(extra.id)}/${team.id}`, { token: owner.token })).status).toBe(204);
    expect((await api("GET", `/api/v4/projects/${extra.id}`, { token: teamGuest.token })).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${extra.id}`, { token: owner.token })).body.shared_with_groups).toEqual([]);
    expect(await api("DELETE", `${shareUrl(extra.id)}/${team.id}`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Group Link Not Found" } });
    expect((await api("DELETE", `${shareUrl(extra.id)}/abc`, { token: owner.token })).status).toBe(400);
  });

  it("ends when the group is deleted, and the project's deletion takes its links along", async () => {
    const gone = await newGroup(owner.token);
    const kept = await newProject(owner.token, { namespace_id: home.id });
    await share(owner.token, kept.id, gone.id, 30);
    expect((await api("DELETE", `/api/v4/groups/${gone.id}`, { token: owner.token })).status).toBe(202);
    expect((await api("GET", `/api/v4/projects/${kept.id}`, { token: owner.token })).body.shared_with_groups).toEqual([]);
    const dropped = await newProject(owner.token, { namespace_id: home.id });
    await share(owner.token, dropped.id, team.id, 30);
    expect((await api("DELETE", `/api/v4/projects/${dropped.id}`, { token: owner.token })).status).toBe(202);
    expect(idsOf((await api("GET", `/api/v4/groups/${team.id}/projects/shared`, { token: teamOwner.token })).body)).not.toContain(dropped.id);
  });
});

describe("invited groups, shared groups and share locations", () => {
  it("lists a project's invited groups, direct and inherited, only those the caller can see", async () => {
    const [outer, parentShare] = [await newGroup(teamOwner.token, { visibility: "public" }), await newGroup(teamOwner.token)];
    await addMember(teamOwner.token, "groups", parentShare.id, owner.id, 10);
    expect((await api("POST", `/api/v4/groups/${home.id}/share`, { token: owner.token, body: { group_id: parentShare.id, group_access: 20 } })).status).toBe(201);
    await addMember(teamOwner.token, "groups", outer.id, owner.id, 10);
    await share(owner.token, project.id, outer.id, 10);
    const url = `/api/v4/projects/${project.id}/invited_groups`;
    expect(idsOf((await api("GET", url, { token: owner.token })).body)).toEqual([team.id, outer.id, parentShare.id].sort((a, b) => a - b));
    expect(idsOf((await api("GET", `${url}?relation=direct`, { token: owner.token })).body)).toEqual([team.id, outer.id].sort((a, b) => a - b));
    expect(idsOf((await api("GET", `${url}?relation[]=inherited`, { token: owner.token })).body)).toEqual([parentShare.id]);
    expect(idsOf((await api("GET", `${url}?search=${encodeURIComponent(outer.name)}`, { token: owner.token })).body)).toEqual([outer.id]);
    expect(idsOf((await api("GET", `${url}?min_access_level=50`, { token: teamOwner.token })).body)).toEqual([team.id, outer.id, parentShare.id].sort((a, b) => a - b));
    // A member of the project who belongs to none of the private groups sees the public one only.
    expect(idsOf((await api("GET", url, { token: roles.guest.token })).body)).toEqual([outer.id]);
    expect((await api("GET", `${url}?relation=sideways`, { token: owner.token })).status).toBe(400);
    const groupsOf = async (query: string) => idsOf((await api("GET", `/api/v4/projects/${project.id}/groups${query}`, { token: owner.token })).body);
    const byId = (ids: number[]) => [...ids].sort((a, b) => a - b);
    expect(await groupsOf("")).toEqual([home.id]);
    expect(await groupsOf("?with_shared=true")).toEqual(byId([home.id, team.id, outer.id]));
    expect(await groupsOf("?with_shared=true&shared_min_access_level=30")).toEqual(byId([home.id, team.id]));
    const groupInvited = await api("GET", `/api/v4/groups/${home.id}/invited_groups`, { token: owner.token });
    expect(groupInvited).toMatchObject({ status: 200, body: [{ id: parentShare.id, full_path: expect.any(String) }] });
    const sharedWith = await api("GET", `/api/v4/groups/${parentShare.id}/groups/shared`, { token: owner.token });
    expect(idsOf(sharedWith.body)).toEqual([home.id]);
    expect((await api("GET", `/api/v4/groups/${parentShare.id}/groups/shared?order_by=size`, { token: owner.token })).status).toBe(400);
    expect((await api("GET", `/api/v4/groups/${parentShare.id}/groups/shared`, { token: roles.stranger.token })).status).toBe(404);
  });

  it("offers as share locations the caller's groups less the project's own and those shared already, none below Maintainer", async () => {
    const [free, sub] = [await newGroup(owner.token), await newGroup(owner.token, { parent_id: home.id })];
    const inside = await newProject(owner.token, { namespace_id: sub.id });
    const locations = idsOf((await api("GET", `/api/v4/projects/${inside.id}/share_locations?per_page=100`, { token: owner.token })).body);
    expect(locations).toEqual(expect.arrayContaining([free.id, team.id]));
    expect(locations).not.toContain(home.id);
    expect(locations).not.toContain(sub.id);
    await share(owner.token, inside.id, free.id, 20);
    expect(idsOf((await api("GET", `/api/v4/projects/${inside.id}/share_locations?per_page=100`, { token: owner.token })).body)).not.toContain(free.id);
    const asAdmin = await api("GET", `/api/v4/projects/${inside.id}/share_locations?search=${encodeURIComponent(team.name)}`, { token: adminToken() });
    expect(idsOf(asAdmin.body)).toEqual([team.id]);
    await addMember(owner.token, "projects", inside.id, teamGuest.id, 30);
    expect((await api("GET", `/api/v4/projects/${inside.id}/share_locations`, { token: teamGuest.token })).body).toEqual([]);
    expect((await api("GET", `/api/v4/projects/${inside.id}/share_locations`, { token: roles.stranger.token })).status).toBe(404);
  });
});
