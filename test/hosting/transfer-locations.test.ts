/** `GET /groups/:id/transfer_locations` and `GET /projects/:id/transfer_locations` (GitLab's groups.md and projects.md). */
import { describe, it, expect } from "vitest";
import { api, adminToken, newUser, unique } from "../support/api.js";
import { addMember, idsOf, newGroup, newProject } from "./support.js";

describe("GET /groups/:id/transfer_locations", () => {
  it("lists the groups the caller owns, but the group itself, its descendants and its parent, by name", async () => {
    const [owner, member] = await Promise.all([newUser(), newUser()]);
    const tag = unique("loc");
    const zeta = await newGroup(owner.token, { name: `Zeta ${tag}` });
    const alpha = await newGroup(owner.token, { name: `Alpha ${tag}` });
    const moving = await newGroup(owner.token, { name: `Moving ${tag}`, parent_id: zeta.id });
    const below = await newGroup(owner.token, { name: `Below ${tag}`, parent_id: moving.id });
    const maintained = await newGroup(member.token, { name: `Maintained ${tag}` });
    await addMember(member.token, "groups", maintained.id, owner.id, 40);
    const res = await api("GET", `/api/v4/groups/${moving.id}/transfer_locations?search=${tag}`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res.body)).toEqual([alpha.id]);
    expect(res.body[0]).toEqual({ id: alpha.id, web_url: expect.stringMatching(new RegExp(`/groups/${alpha.full_path}$`)), name: `Alpha ${tag}`, avatar_url: null, full_name: expect.any(String), full_path: alpha.full_path });
    expect(res.headers.get("x-total")).toBe("1");
    // Its subgroup may move anywhere else, its current parent included.
    expect(idsOf((await api("GET", `/api/v4/groups/${below.id}/transfer_locations?search=${tag}`, { token: owner.token })).body)).toEqual([alpha.id, zeta.id]);
    // An administrator may move it under any group.
    expect(idsOf((await api("GET", `/api/v4/groups/${moving.id}/transfer_locations?search=${tag}`, { token: adminToken() })).body)).toEqual([alpha.id, maintained.id]);
  });

  it("is for the group's Owners: 403 below, 404 for a group the caller cannot see", async () => {
    const [owner, dev, stranger] = await Promise.all([newUser(), newUser(), newUser()]);
    const group = await newGroup(owner.token);
    await addMember(owner.token, "groups", group.id, dev.id, 40);
    expect(await api("GET", `/api/v4/groups/${group.id}/transfer_locations`, { token: dev.token })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await api("GET", `/api/v4/groups/${group.id}/transfer_locations`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect((await api("GET", `/api/v4/groups/${group.id}/transfer_locations`)).status).toBe(401);
  });
});

describe("GET /projects/:id/transfer_locations", () => {
  it("lists the groups where the caller may create projects (Maintainer+), not the project's own", async () => {
    const [owner, other] = await Promise.all([newUser(), newUser()]);
    const tag = unique("ploc");
    const home = await newGroup(owner.token, { name: `Home ${tag}` });
    const sub = await newGroup(owner.token, { name: `Child ${tag}`, parent_id: home.id });
    const maintained = await newGroup(other.token, { name: `Maintained ${tag}` });
    const developed = await newGroup(other.token, { name: `Developed ${tag}` });
    await addMember(other.token, "groups", maintained.id, owner.id, 40);
    await addMember(other.token, "groups", developed.id, owner.id, 30);
    const project = await newProject(owner.token, { namespace_id: home.id });
    const res = await api("GET", `/api/v4/projects/${project.id}/transfer_locations?search=${tag}`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res.body)).toEqual([sub.id, maintained.id]);
    const personal = await newProject(owner.token);
    expect(idsOf((await api("GET", `/api/v4/projects/${personal.id}/transfer_locations?search=${tag}`, { token: owner.token })).body)).toEqual([sub.id, home.id, maintained.id]);
    expect(idsOf((await api("GET", `/api/v4/projects/${personal.id}/transfer_locations?search=maintained ${tag}`, { token: owner.token })).body)).toEqual([maintained.id]);
  });

  it("is for those who may transfer the project (Owners): 403 below, 404 for strangers", async () => {
    const [owner, maintainer, stranger] = await Promise.all([newUser(), newUser(), newUser()]);
    const project = await newProject(owner.token);
    await addMember(owner.token, "projects", project.id, maintainer.id, 40);
    expect(await api("GET", `/api/v4/projects/${project.id}/transfer_locations`, { token: maintainer.token })).toMatchObject({ status: 403 });
    expect(await api("GET", `/api/v4/projects/${project.id}/transfer_locations`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
  });
});
