/**
 * Administrators placing projects: `POST /projects/user/:user_id` (GitLab's "Create a project for a
 * user") and `POST /groups/:id/projects/:project_id` (GitLab's "Transfer a project to a group").
 */
import { describe, it, expect } from "vitest";
import { api, adminToken, newUser, unique } from "../support/api.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { addMember, newGroup, newProject } from "./support.js";

const READ_ONLY = { status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } };

describe("POST /projects/user/:user_id", () => {
  it("creates the project as the user: in its namespace, by it, the user its Owner", async () => {
    const u = await newUser();
    const name = unique("for-user");
    const res = await api("POST", `/api/v4/projects/user/${u.id}`, { token: adminToken(), body: { name, description: "made for", initialize_with_readme: true, visibility: "internal" } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name, path: name, path_with_namespace: `${u.username}/${name}`, creator_id: u.id, description: "made for", visibility: "internal", namespace: { kind: "user", path: u.username } });
    expect((await api("GET", `/api/v4/projects/${res.body.id}/members/${u.id}`, { token: u.token })).body.access_level).toBe(50);
    const tree = await api("GET", `/api/v4/projects/${res.body.id}/repository/tree`, { token: u.token });
    expect(tree.body.map((e: { name: string }) => e.name)).toEqual(["README.md"]);
    const commits = await api("GET", `/api/v4/projects/${res.body.id}/repository/commits`, { token: u.token });
    expect(commits.body[0].author_email).toBe(`${u.username}@example.com`);
  });

  it("creates in a group only where the user may create projects", async () => {
    const [u, owner] = await Promise.all([newUser(), newUser()]);
    const group = await newGroup(owner.token);
    const create = () => api("POST", `/api/v4/projects/user/${u.id}`, { token: adminToken(), body: { name: unique("in-group"), namespace_id: group.id } });
    expect(await create()).toMatchObject({ status: 404, body: { message: "404 Namespace Not Found" } });
    await addMember(owner.token, "groups", group.id, u.id, 30);
    expect(await create()).toMatchObject({ status: 201, body: { namespace: { id: group.id, kind: "group" }, creator_id: u.id } });
  });

  it("is for administrators; needs a name; answers 404 for an unknown user and GitLab's errors", async () => {
    const u = await newUser();
    expect((await api("POST", `/api/v4/projects/user/${u.id}`, { token: u.token, body: { name: "x" } })).status).toBe(403);
    expect((await api("POST", `/api/v4/projects/user/${u.id}`, { body: { name: "x" } })).status).toBe(401);
    expect(await api("POST", `/api/v4/projects/user/${u.id}`, { token: adminToken(), body: { path: "only-path" } })).toMatchObject({ status: 400, body: { error: "name is missing" } });
    expect(await api("POST", "/api/v4/projects/user/999999999", { token: adminToken(), body: { name: "x" } })).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect(await api("POST", `/api/v4/projects/user/${u.id}`, { token: adminToken(), body: { name: "x", repository_storage: "nowhere" } })).toMatchObject({ status: 400, body: { message: { repository_storage: ["is not included in the list"] } } });
    const taken = unique("taken");
    expect((await api("POST", `/api/v4/projects/user/${u.id}`, { token: adminToken(), body: { name: taken } })).status).toBe(201);
    expect(await api("POST", `/api/v4/projects/user/${u.id}`, { token: adminToken(), body: { name: taken } })).toMatchObject({ status: 400, body: { message: { path: ["has already been taken"] } } });
  });
});

describe("POST /groups/:id/projects/:project_id", () => {
  it("moves a project (by id or path) into the group and answers the group", async () => {
    const owner = await newUser();
    const group = await newGroup(owner.token, { visibility: "internal" });
    const project = await newProject(owner.token, { visibility: "public", initialize_with_readme: true });
    const res = await api("POST", `/api/v4/groups/${group.id}/projects/${project.id}`, { token: adminToken() });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ id: group.id, full_path: group.full_path, shared_with_groups: [] });
    const moved = (await api("GET", `/api/v4/projects/${project.id}`, { token: owner.token })).body;
    expect(moved).toMatchObject({ path_with_namespace: `${group.full_path}/${project.path_with_namespace.split("/")[1]}`, namespace: { id: group.id }, visibility: "internal" });
    expect((await api("GET", `/api/v4/groups/${group.id}/projects`, { token: owner.token })).body.map((p: { id: number }) => p.id)).toEqual([project.id]);
    // Again: it is there already.
    expect(await api("POST", `/api/v4/groups/${group.id}/projects/${encodeURIComponent(moved.path_with_namespace)}`, { token: adminToken() })).toMatchObject({
      status: 400,
      body: { message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}' },
    });
  });

  it("is refused while a storage move holds the repository, to non-administrators, and for unknown containers", async () => {
    const owner = await newUser();
    const group = await newGroup(owner.token);
    const project = await newProject(owner.token);
    await updateItem({ pk: `PROJECT#${project.id}`, sk: "PROJECT", update: "SET readOnly = :r", values: { ":r": true } });
    expect(await api("POST", `/api/v4/groups/${group.id}/projects/${project.id}`, { token: adminToken() })).toMatchObject(READ_ONLY);
    await updateItem({ pk: `PROJECT#${project.id}`, sk: "PROJECT", update: "SET readOnly = :r", values: { ":r": false } });
    expect((await api("POST", `/api/v4/groups/${group.id}/projects/${project.id}`, { token: owner.token })).status).toBe(403);
    expect(await api("POST", `/api/v4/groups/999999999/projects/${project.id}`, { token: adminToken() })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await api("POST", `/api/v4/groups/${group.id}/projects/999999999`, { token: adminToken() })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: owner.token })).body.namespace.kind).toBe("user");
  });
});
