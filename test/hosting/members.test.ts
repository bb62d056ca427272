/**
 * One member of a project (`GET`/`PUT /projects/:id/members/:user_id`), one effective member of a
 * group or project (`members/all/:user_id`), a project's users (`GET /projects/:id/users`) and
 * importing another project's members, with GitLab's roles: Guest, Reporter, Developer, Maintainer,
 * Owner and an administrator.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, adminToken, newUser } from "../support/api.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { memberKey } from "../../functions/hosting/domain/keys.js";
import { addMember, idsOf, newGroup, newProject, projectRoles, share, type User } from "./support.js";

let groupOwner: User;
let group: { id: number };
let project: { id: number; path_with_namespace: string };
let roles: Awaited<ReturnType<typeof projectRoles>>;
/** A member of the project's group only: inherited, never direct. */
let groupDeveloper: User;

beforeAll(async () => {
  [groupOwner, groupDeveloper] = await Promise.all([newUser(), newUser()]);
  group = await newGroup(groupOwner.token);
  await addMember(groupOwner.token, "groups", group.id, groupDeveloper.id, 30);
  project = await newProject(groupOwner.token, { namespace_id: group.id });
  roles = await projectRoles(groupOwner.token, project.id);
});

const memberUrl = (userId: number, all = false) => `/api/v4/projects/${project.id}/members/${all ? "all/" : ""}${userId}`;

describe("GET /projects/:id/members/:user_id", () => {
  it("reads a direct member for any role, by id or path, with GitLab's member entity", async () => {
    for (const caller of [roles.guest, roles.reporter, roles.developer, roles.maintainer, roles.owner]) {
      const res = await api("GET", memberUrl(roles.developer.id), { token: caller.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: roles.developer.id, username: roles.developer.username, state: "active", access_level: 30, expires_at: null });
      expect(res.body.created_by).toMatchObject({ id: groupOwner.id, username: groupOwner.username });
    }
    const byPath = await api("GET", `/api/v4/projects/${encodeURIComponent(project.path_with_namespace)}/members/${roles.guest.id}`, { token: adminToken() });
    expect(byPath.body).toMatchObject({ id: roles.guest.id, access_level: 10 });
  });

  it("answers only direct members: an inherited one is GitLab's 404 Not found here and found in members/all", async () => {
    expect(await api("GET", memberUrl(groupDeveloper.id), { token: roles.guest.token })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await api("GET", memberUrl(groupDeveloper.id, true), { token: roles.guest.token })).toMatchObject({ status: 200, body: { id: groupDeveloper.id, access_level: 30 } });
    expect(await api("GET", memberUrl(roles.stranger.id, true), { token: roles.guest.token })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });

  it("refuses: no token 401, a stranger to the private project 404, a user id that is not a number 400", async () => {
    expect((await api("GET", memberUrl(roles.guest.id))).status).toBe(401);
    expect(await api("GET", memberUrl(roles.guest.id), { token: roles.stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await api("GET", memberUrl(roles.guest.id, true), { token: roles.stranger.token })).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${project.id}/members/abc`, { token: roles.owner.token })).status).toBe(400);
    expect((await api("GET", `/api/v4/projects/${project.id}/members/all/abc`, { token: roles.owner.token })).status).toBe(400);
  });
});

describe("PUT /projects/:id/members/:user_id", () => {
  it("is for Maintainers and up: Guests, Reporters and Developers get 403", async () => {
    for (const caller of [roles.guest, roles.reporter, roles.developer]) {
      expect(await api("PUT", memberUrl(roles.guest.id), { token: caller.token, body: { access_level: 20 } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    }
    expect((await api("GET", memberUrl(roles.guest.id), { token: roles.guest.token })).body.access_level).toBe(10);
  });

  it("lets a Maintainer change level and expiry within its own level; only Owners grant or change Owner", async () => {
    const target = await newUser();
    await addMember(groupOwner.token, "projects", project.id, target.id, 30);
    const changed = await api("PUT", memberUrl(target.id), { token: roles.maintainer.token, body: { access_level: 20, expires_at: "2999-12-31", member_role_id: 7 } });
    expect(changed).toMatchObject({ status: 200, body: { id: target.id, access_level: 20, expires_at: "2999-12-31" } });
    expect((await api("GET", memberUrl(target.id), { token: roles.guest.token })).body).toMatchObject({ access_level: 20, expires_at: "2999-12-31" });
    expect((await api("PUT", memberUrl(target.id), { token: roles.maintainer.token, body: { access_level: 50 } })).status).toBe(403);
    expect((await api("PUT", memberUrl(roles.owner.id), { token: roles.maintainer.token, body: { access_level: 40 } })).status).toBe(403);
    expect(await api("PUT", memberUrl(target.id), { token: roles.owner.token, body: { access_level: 50, expires_at: null } })).toMatchObject({ status: 200, body: { access_level: 50, expires_at: null } });
    expect(await api("PUT", `${memberUrl(target.id)}?access_level=30`, { token: adminToken() })).toMatchObject({ status: 200, body: { access_level: 30 } });
  });

  it("refuses bad input with Grape's errors and unknown members with 404", async () => {
    const token = roles.owner.token;
    expect(await api("PUT", memberUrl(roles.guest.id), { token, body: {} })).toMatchObject({ status: 400, body: { error: "access_level is missing" } });
    expect(await api("PUT", memberUrl(roles.guest.id), { token, body: { access_level: 35 } })).toMatchObject({ status: 400, body: { error: "access_level does not have a valid value" } });
    expect((await api("PUT", memberUrl(roles.guest.id), { token, body: { access_level: 20, expires_at: "31/12/2999" } })).status).toBe(400);
    expect(await api("PUT", memberUrl(groupDeveloper.id), { token, body: { access_level: 20 } })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await api("PUT", memberUrl(roles.guest.id), { body: { access_level: 20 } })).status).toBe(401);
    expect((await api("PUT", memberUrl(roles.guest.id), { token: roles.stranger.token, body: { access_level: 20 } })).status).toBe(404);
  });
});

describe("GET /groups/:id/members/all/:user_id", () => {
  it("answers a user's effective membership: inherited, direct when higher, through a share capped at its level", async () => {
    const [inherited, both, invited] = await Promise.all([newUser(), newUser(), newUser()]);
    const parent = await newGroup(groupOwner.token);
    const child = await newGroup(groupOwner.token, { parent_id: parent.id });
    const other = await newGroup(invited.token);
    await addMember(groupOwner.token, "groups", parent.id, inherited.id, 20);
    await addMember(groupOwner.token, "groups", parent.id, both.id, 10);
    await addMember(groupOwner.token, "groups", child.id, both.id, 40);
    await addMember(invited.token, "groups", other.id, groupOwner.id, 10);
    expect((await api("POST", `/api/v4/groups/${child.id}/share`, { token: groupOwner.token, body: { group_id: other.id, group_access: 30 } })).status).toBe(201);
    const one = (userId: number) => api("GET", `/api/v4/groups/${child.id}/members/all/${userId}`, { token: inherited.token });
    expect(await one(inherited.id)).toMatchObject({ status: 200, body: { id: inherited.id, access_level: 20 } });
    expect(await one(both.id)).toMatchObject({ status: 200, body: { id: both.id, access_level: 40 } });
    expect(await one(invited.id)).toMatchObject({ status: 200, body: { id: invited.id, access_level: 30 } });
    expect(await one(groupDeveloper.id)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await api("GET", `/api/v4/groups/${child.id}/members/all/${inherited.id}`, { token: groupDeveloper.token })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect((await api("GET", `/api/v4/groups/${child.id}/members/all/${inherited.id}`)).status).toBe(401);
  });
});

describe("GET /projects/:id/users", () => {
  it("lists everyone who reaches the project, by id: direct members, its group's, a shared group's", async () => {
    const sharedMember = await newUser();
    const other = await newGroup(sharedMember.token);
    await addMember(sharedMember.token, "groups", other.id, groupOwner.id, 10);
    const p = await newProject(groupOwner.token, { namespace_id: group.id });
    await share(groupOwner.token, p.id, other.id, 20);
    const res = await api("GET", `/api/v4/projects/${p.id}/users?per_page=100`, { token: groupDeveloper.token });
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([groupOwner.id, groupDeveloper.id, sharedMember.id].sort((a, b) => a - b));
    expect(Object.keys(res.body[0]).sort()).toEqual(["avatar_url", "id", "locked", "name", "state", "username", "web_url"]);
    expect(res.headers.get("x-total")).toBe("3");
    const searched = await api("GET", `/api/v4/projects/${p.id}/users?search=${sharedMember.username.toUpperCase()}`, { token: groupDeveloper.token });
    expect(idsOf(searched.body)).toEqual([sharedMember.id]);
    const skipped = await api("GET", `/api/v4/projects/${p.id}/users?skip_users[]=${groupOwner.id}&skip_users[]=${sharedMember.id}`, { token: groupDeveloper.token });
    expect(idsOf(skipped.body)).toEqual([groupDeveloper.id]);
    const comma = await api("GET", `/api/v4/projects/${p.id}/users?skip_users=${groupOwner.id},${groupDeveloper.id}`, { token: groupDeveloper.token });
    expect(idsOf(comma.body)).toEqual([sharedMember.id]);
  });

  it("answers anyone on a public project, nobody but its users on a private one", async () => {
    const open = await newProject(groupOwner.token, { visibility: "public" });
    expect(await api("GET", `/api/v4/projects/${open.id}/users`)).toMatchObject({ status: 200, body: [{ id: groupOwner.id }] });
    expect((await api("GET", `/api/v4/projects/${project.id}/users`)).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${project.id}/users`, { token: roles.stranger.token })).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${project.id}/users?skip_users=x`, { token: roles.guest.token })).status).toBe(400);
  });
});

describe("POST /projects/:id/import_project_members/:project_id", () => {
  it("copies the source's direct members a Maintainer may grant: Owners as Maintainers, existing and expired ones left", async () => {
    const source = await newProject(roles.maintainer.token);
    const [sourceOwner, expiredMember] = await Promise.all([newUser(), newUser()]);
    await addMember(roles.maintainer.token, "projects", source.id, sourceOwner.id, 50);
    await addMember(roles.maintainer.token, "projects", source.id, expiredMember.id, 30);
    await addMember(roles.maintainer.token, "projects", source.id, roles.guest.id, 40);
    const key = memberKey("project", source.id, expiredMember.id);
    await updateItem({ ...key, update: "SET expiresAt = :e", values: { ":e": "2000-01-01" } });
    const res = await api("POST", `/api/v4/projects/${project.id}/import_project_members/${source.id}`, { token: roles.maintainer.token });
    expect(res).toMatchObject({ status: 200, body: { status: "success" } });
    const level = async (userId: number) => (await api("GET", memberUrl(userId), { token: roles.guest.token })).body.access_level;
    expect(await level(sourceOwner.id)).toBe(40);
    expect(await level(roles.guest.id)).toBe(10);
    expect((await api("GET", memberUrl(expiredMember.id), { token: roles.guest.token })).status).toBe(404);
    expect((await api("GET", memberUrl(sourceOwner.id), { token: roles.guest.token })).body.created_by).toMatchObject({ id: roles.maintainer.id });
  });

  it("refuses: below Maintainer 403, a source the caller cannot read or no target 404 Project Not Found, no token 401", async () => {
    const source = await newProject(roles.developer.token);
    const hidden = await newProject(roles.stranger.token);
    expect(await api("POST", `/api/v4/projects/${project.id}/import_project_members/${source.id}`, { token: roles.developer.token })).toMatchObject({ status: 403 });
    expect(await api("POST", `/api/v4/projects/${project.id}/import_project_members/${hidden.id}`, { token: roles.maintainer.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await api("POST", `/api/v4/projects/${hidden.id}/import_project_members/${source.id}`, { token: roles.developer.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await api("POST", `/api/v4/projects/${project.id}/import_project_members/${source.id}`)).status).toBe(401);
    const owned = await api("POST", `/api/v4/projects/${project.id}/import_project_members/${encodeURIComponent(source.path_with_namespace)}`, { token: adminToken() });
    expect(owned).toMatchObject({ status: 200, body: { status: "success" } });
    expect((await api("GET", memberUrl(roles.developer.id), { token: roles.guest.token })).body.access_level).toBe(30);
  });
});
