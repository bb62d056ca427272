/**
 * Access requests to groups and projects (GitLab's `access_requests.md`): asking to join, the list
 * its member managers see (a project's Maintainers and Owners, a group's Owners), approving into a
 * direct membership, denying and withdrawing, and `request_access_enabled`.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, adminToken, newUser } from "../support/api.js";
import { queryAll } from "../../functions/platform/db/table.js";
import { accessRequestsRange } from "../../functions/hosting/domain/keys.js";
import { addMember, idsOf, newGroup, newProject, projectRoles, type User } from "./support.js";

let owner: User;
let roles: Awaited<ReturnType<typeof projectRoles>>;
let project: { id: number };

beforeAll(async () => {
  owner = await newUser();
  project = await newProject(owner.token, { visibility: "internal" });
  roles = await projectRoles(owner.token, project.id);
});

const requests = (kind: "projects" | "groups", id: number) => `/api/v4/${kind}/${id}/access_requests`;

describe("project access requests", () => {
  it("takes a request from a user with no access, lists it for Maintainers and up, approves it as Developer by default", async () => {
    const asker = await newUser();
    const asked = await api("POST", requests("projects", project.id), { token: asker.token });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ id: asker.id, username: asker.username, state: "active", locked: false, requested_at: expect.any(String) });
    for (const manager of [roles.maintainer, roles.owner, { token: adminToken() }]) {
      const listed = await api("GET", requests("projects", project.id), { token: manager.token });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([expect.objectContaining({ id: asker.id, requested_at: asked.body.requested_at })]);
      expect(listed.headers.get("x-total")).toBe("1");
    }
    for (const caller of [roles.guest, roles.reporter, roles.developer, asker]) {
      expect(await api("GET", requests("projects", project.id), { token: caller.token })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    }
    // Requests are not members.
    expect((await api("GET", `/api/v4/projects/${project.id}/members/${asker.id}`, { token: roles.guest.token })).status).toBe(404);
    const approved = await api("PUT", `${requests("projects", project.id)}/${asker.id}/approve`, { token: roles.maintainer.token });
    expect(approved).toMatchObject({ status: 201, body: { id: asker.id, access_level: 30, created_at: asked.body.requested_at, created_by: { id: roles.maintainer.id } } });
    expect((await api("GET", `/api/v4/projects/${project.id}/members/${asker.id}`, { token: roles.guest.token })).body.access_level).toBe(30);
    expect((await api("GET", requests("projects", project.id), { token: roles.owner.token })).body).toEqual([]);
    expect(await api("PUT", `${requests("projects", project.id)}/${asker.id}/approve`, { token: roles.owner.token })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });

  it("refuses a request from anyone with access already (members, administrators) and a second one", async () => {
    for (const member of [roles.guest, roles.owner, { token: adminToken() }]) {
      expect(await api("POST", requests("projects", project.id), { token: member.token })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    }
    const asker = await newUser();
    expect((await api("POST", requests("projects", project.id), { token: asker.token })).status).toBe(201);
    expect(await api("POST", requests("projects", project.id), { token: asker.token })).toMatchObject({ status: 400, body: { message: { user_id: ["already exists in source"] } } });
    expect((await api("POST", requests("projects", project.id))).status).toBe(401);
    const hidden = await newProject(owner.token);
    expect(await api("POST", requests("projects", hidden.id), { token: asker.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
  });

  it("approves within the approver's level: a Maintainer grants up to Maintainer, Owner only an Owner", async () => {
    const asker = await newUser();
    await api("POST", requests("projects", project.id), { token: asker.token });
    const approve = (token: string, level: unknown) => api("PUT", `${requests("projects", project.id)}/${asker.id}/approve?access_level=${level}`, { token });
    expect(await approve(roles.maintainer.token, 50)).toMatchObject({ status: 403 });
    expect(await approve(roles.developer.token, 10)).toMatchObject({ status: 403 });
    expect(await approve(roles.owner.token, 35)).toMatchObject({ status: 400, body: { error: "access_level does not have a valid value" } });
    expect((await api("PUT", `${requests("projects", project.id)}/abc/approve`, { token: roles.owner.token })).status).toBe(400);
    expect(await approve(roles.owner.token, 50)).toMatchObject({ status: 201, body: { id: asker.id, access_level: 50 } });
  });

  it("denies (204) for managers, lets the requester withdraw, refuses anyone else 403 and no request 404", async () => {
    const [first, second] = await Promise.all([newUser(), newUser()]);
    for (const asker of [first, second]) expect((await api("POST", requests("projects", project.id), { token: asker.token })).status).toBe(201);
    expect(await api("DELETE", `${requests("projects", project.id)}/${first.id}`, { token: roles.developer.token })).toMatchObject({ status: 403 });
    expect(await api("DELETE", `${requests("projects", project.id)}/${first.id}`, { token: second.token })).toMatchObject({ status: 403 });
    expect((await api("DELETE", `${requests("projects", project.id)}/${first.id}`, { token: roles.maintainer.token })).status).toBe(204);
    expect((await api("DELETE", `${requests("projects", project.id)}/${second.id}`, { token: second.token })).status).toBe(204);
    expect(await api("DELETE", `${requests("projects", project.id)}/${second.id}`, { token: roles.owner.token })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    const left = idsOf((await api("GET", requests("projects", project.id), { token: roles.owner.token })).body);
    expect(left.filter((id) => id === first.id || id === second.id)).toEqual([]);
  });

  it("takes none while request_access_enabled is off, shown and set on the project", async () => {
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: roles.guest.token })).body.request_access_enabled).toBe(true);
    expect((await api("PUT", `/api/v4/projects/${project.id}`, { token: roles.maintainer.token, body: { request_access_enabled: false } })).body.request_access_enabled).toBe(false);
    expect(await api("POST", requests("projects", project.id), { token: (await newUser()).token })).toMatchObject({ status: 403 });
    expect((await api("PUT", `/api/v4/projects/${project.id}`, { token: roles.maintainer.token, body: { request_access_enabled: "maybe" } })).status).toBe(400);
    expect((await api("PUT", `/api/v4/projects/${project.id}`, { token: roles.maintainer.token, body: { request_access_enabled: true } })).status).toBe(200);
    const closed = await newProject(owner.token, { visibility: "public", request_access_enabled: false });
    expect(await api("POST", requests("projects", closed.id), { token: (await newUser()).token })).toMatchObject({ status: 403 });
  });
});

describe("group access requests", () => {
  it("are managed by the group's Owners: a Maintainer neither lists, approves nor denies them", async () => {
    const [maintainer, asker, other] = await Promise.all([newUser(), newUser(), newUser()]);
    const group = await newGroup(owner.token, { visibility: "public" });
    await addMember(owner.token, "groups", group.id, maintainer.id, 40);
    for (const u of [asker, other]) expect((await api("POST", requests("groups", group.id), { token: u.token })).status).toBe(201);
    expect((await api("GET", requests("groups", group.id), { token: maintainer.token })).status).toBe(403);
    expect((await api("PUT", `${requests("groups", group.id)}/${asker.id}/approve`, { token: maintainer.token })).status).toBe(403);
    expect((await api("DELETE", `${requests("groups", group.id)}/${asker.id}`, { token: maintainer.token })).status).toBe(403);
    const listed = await api("GET", `${requests("groups", group.id)}?per_page=1`, { token: owner.token });
    expect(idsOf(listed.body)).toEqual([Math.min(asker.id, other.id)]);
    expect(listed.headers.get("x-total")).toBe("2");
    expect((await api("GET", `${requests("groups", group.id)}?per_page=x`, { token: owner.token })).status).toBe(400);
    expect(await api("PUT", `${requests("groups", group.id)}/${asker.id}/approve`, { token: owner.token, body: { access_level: 20 } })).toMatchObject({ status: 201, body: { id: asker.id, access_level: 20 } });
    expect((await api("GET", `/api/v4/groups/${group.id}/members/${asker.id}`, { token: asker.token })).body.access_level).toBe(20);
    // A member of the group now, and of its subgroups: no request for either.
    expect((await api("POST", requests("groups", group.id), { token: asker.token })).status).toBe(403);
    const sub = await newGroup(owner.token, { parent_id: group.id, visibility: "public" });
    expect((await api("POST", requests("groups", sub.id), { token: asker.token })).status).toBe(403);
    expect((await api("DELETE", `${requests("groups", group.id)}/${other.id}`, { token: owner.token })).status).toBe(204);
  });

  it("follows the group's request_access_enabled, and a private group is not found by strangers", async () => {
    const group = await newGroup(owner.token, { visibility: "internal", request_access_enabled: false });
    expect((await api("GET", `/api/v4/groups/${group.id}`, { token: owner.token })).body.request_access_enabled).toBe(false);
    const asker = await newUser();
    expect((await api("POST", requests("groups", group.id), { token: asker.token })).status).toBe(403);
    expect((await api("PUT", `/api/v4/groups/${group.id}`, { token: owner.token, body: { request_access_enabled: true } })).body.request_access_enabled).toBe(true);
    expect((await api("POST", requests("groups", group.id), { token: asker.token })).status).toBe(201);
    const hidden = await newGroup(owner.token);
    expect(await api("POST", requests("groups", hidden.id), { token: asker.token })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect((await api("GET", requests("groups", hidden.id))).status).toBe(401);
  });

  it("go with their group when it is deleted", async () => {
    const group = await newGroup(owner.token, { visibility: "public" });
    const asker = await newUser();
    expect((await api("POST", requests("groups", group.id), { token: asker.token })).status).toBe(201);
    expect((await api("DELETE", `/api/v4/groups/${group.id}`, { token: owner.token })).status).toBe(202);
    expect(await queryAll(accessRequestsRange("group", group.id))).toEqual([]);
  });
});
