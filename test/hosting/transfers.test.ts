/**
 * `PUT /projects/:id/transfer` and `POST /groups/:id/transfer`: new namespaces and full paths, the
 * old paths freed, repositories left where they are (they are named by id), GitLab's refusals.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, newUser, unique } from "../support/api.js";
import { commitSubjects, repoPaths } from "../support/git.js";
import { deleteItem, putItem, updateItem } from "../../functions/platform/db/table.js";
import { pathClaimKey } from "../../functions/hosting/domain/keys.js";

type User = Awaited<ReturnType<typeof newUser>>;
let owner: User;
let other: User;

beforeAll(async () => {
  [owner, other] = await Promise.all([newUser(), newUser()]);
});

async function newGroup(token: string, body: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/v4/groups", { token, body: { name: unique("Team"), path: unique("grp"), ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

async function newProject(token: string, body: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/v4/projects", { token, body: { name: unique("proj"), initialize_with_readme: true, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

async function addMember(kind: "groups" | "projects", id: number, userId: number, level: number) {
  expect((await api("POST", `/api/v4/${kind}/${id}/members`, { token: owner.token, body: { user_id: userId, access_level: level } })).status).toBe(201);
}

const byPath = (kind: "projects" | "groups", fullPath: string, token = owner.token) => api("GET", `/api/v4/${kind}/${encodeURIComponent(fullPath)}`, { token });
const setReadOnly = (id: number, readOnly: boolean) => updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :r", values: { ":r": readOnly } });
const READ_ONLY = { status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } };

describe("PUT /projects/:id/transfer", () => {
  it("moves a project into a group and back: namespace, full path and path claims change, the repository stays", async () => {
    const group = await newGroup(owner.token);
    const project = await newProject(owner.token, { visibility: "public" });
    const [dirBefore] = repoPaths("default", "project", project.id);

    const moved = await api("PUT", `/api/v4/projects/${project.id}/transfer`, { token: owner.token, body: { namespace: group.id } });
    expect(moved).toMatchObject({ status: 200, body: { namespace: { id: group.id, full_path: group.full_path }, path_with_namespace: `${group.full_path}/${project.path}`, visibility: "private" } });
    expect((await byPath("projects", project.path_with_namespace)).status).toBe(404);
    expect((await byPath("projects", `${group.full_path}/${project.path}`)).body.id).toBe(project.id);
    expect((await api("GET", `/api/v4/users/${owner.id}/projects`, { token: owner.token })).body.map((p: { id: number }) => p.id)).not.toContain(project.id);
    // Named by id: the same repository, readable through the API at its new path.
    expect(repoPaths("default", "project", project.id)[0]).toBe(dirBefore);
    expect(commitSubjects(dirBefore!)).toEqual(["Initial commit"]);
    const tree = await api("GET", `/api/v4/projects/${encodeURIComponent(`${group.full_path}/${project.path}`)}/repository/tree`, { token: owner.token });
    expect(tree.body.map((t: { path: string }) => t.path)).toEqual(["README.md"]);

    // A member of the group now reaches it through the group.
    await addMember("groups", group.id, other.id, 30);
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: other.token })).status).toBe(200);

    const back = await api("PUT", `/api/v4/projects/${project.id}/transfer`, { token: owner.token, body: { namespace: owner.username } });
    expect(back).toMatchObject({ status: 200, body: { path_with_namespace: project.path_with_namespace, namespace: { kind: "user" } } });
    expect((await api("GET", `/api/v4/users/${owner.id}/projects`, { token: owner.token })).body.map((p: { id: number }) => p.id)).toContain(project.id);
    expect((await byPath("projects", `${group.full_path}/${project.path}`)).status).toBe(404);
  });

  it("refuses a taken path and the namespace the project is in with GitLab's 400", async () => {
    const group = await newGroup(owner.token);
    const project = await newProject(owner.token);
    await newProject(owner.token, { path: project.path, name: unique("same"), namespace_id: group.id });
    const taken = await api("PUT", `/api/v4/projects/${project.id}/transfer`, { token: owner.token, body: { namespace: group.full_path } });
    expect(taken).toMatchObject({ status: 400, body: { message: 'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}' } });
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: owner.token })).body.path_with_namespace).toBe(project.path_with_namespace);
    const same = await api("PUT", `/api/v4/projects/${project.id}/transfer`, { token: owner.token, body: { namespace: owner.username } });
    expect(same).toMatchObject({ status: 400, body: { message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}' } });
  });

  it("needs the project's Owner and Maintainer in the target group", async () => {
    const project = await newProject(owner.token);
    const group = await newGroup(owner.token);
    expect((await api("PUT", `/api/v4/projects/${project.id}/transfer`, { body: { namespace: group.id } })).status).toBe(401);
    await addMember("projects", project.id, other.id, 40);
    expect((await api("PUT", `/api/v4/projects/${project.id}/transfer`, { token: other.token, body: { namespace: other.username } })).status).toBe(403);
    const own = await newProject(other.token);
    const hidden = await api("PUT", `/api/v4/projects/${own.id}/transfer`, { token: other.token, body: { namespace: group.id } });
    expect(hidden).toMatchObject({ status: 404, body: { message: "404 Namespace Not Found" } });
    await addMember("groups", group.id, other.id, 30);
    const developer = await api("PUT", `/api/v4/projects/${own.id}/transfer`, { token: other.token, body: { namespace: group.id } });
    expect(developer).toMatchObject({ status: 400, body: { message: 'Failed to transfer project {:new_namespace=>["Transfer failed, please contact an admin."]}' } });
  });

  it("rejects bad input and is refused while the repository is being moved", async () => {
    const project = await newProject(owner.token);
    const group = await newGroup(owner.token);
    expect(await api("PUT", `/api/v4/projects/${project.id}/transfer`, { token: owner.token, body: {} })).toMatchObject({ status: 400, body: { error: "namespace is missing" } });
    // A declared parameter of the wrong type is refused; an undeclared one beside it is not the reason.
    expect(await api("PUT", `/api/v4/projects/${project.id}/transfer`, { token: owner.token, body: { namespace: [group.id], path: "x" } })).toMatchObject({ status: 400, body: { error: "namespace is invalid" } });
    await setReadOnly(project.id, true);
    try {
      expect(await api("PUT", `/api/v4/projects/${project.id}/transfer`, { token: owner.token, body: { namespace: group.id } })).toMatchObject(READ_ONLY);
    } finally {
      await setReadOnly(project.id, false);
    }
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: owner.token })).body.namespace.kind).toBe("user");
  });
});

describe("POST /groups/:id/transfer", () => {
  it("moves a group with its subgroups and projects under a new parent, then to the top level", async () => {
    const target = await newGroup(owner.token);
    const moving = await newGroup(owner.token);
    const sub = await newGroup(owner.token, { parent_id: moving.id });
    const project = await newProject(owner.token, { namespace_id: sub.id });
    await addMember("groups", target.id, other.id, 20);

    const res = await api("POST", `/api/v4/groups/${moving.id}/transfer`, { token: owner.token, body: { group_id: target.id } });
    const base = `${target.full_path}/${moving.path}`;
    expect(res).toMatchObject({ status: 201, body: { id: moving.id, parent_id: target.id, full_path: base } });
    expect((await byPath("groups", `${base}/${sub.path}`)).body).toMatchObject({ id: sub.id, full_path: `${base}/${sub.path}` });
    expect((await byPath("projects", `${base}/${sub.path}/${project.path}`)).body).toMatchObject({ id: project.id, namespace: { full_path: `${base}/${sub.path}` } });
    for (const old of [moving.full_path, sub.full_path]) expect((await byPath("groups", old)).status).toBe(404);
    expect((await byPath("projects", project.path_with_namespace)).status).toBe(404);
    // Members of the new parent reach everything below it.
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: other.token })).status).toBe(200);
    const subgroups = await api("GET", `/api/v4/groups/${target.id}/descendant_groups`, { token: owner.token });
    expect(subgroups.body.map((g: { id: number }) => g.id).sort()).toEqual([moving.id, sub.id].sort());

    const top = await api("POST", `/api/v4/groups/${moving.id}/transfer`, { token: owner.token });
    expect(top).toMatchObject({ status: 201, body: { parent_id: null, full_path: moving.path } });
    expect((await byPath("projects", `${moving.path}/${sub.path}/${project.path}`)).body.id).toBe(project.id);
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: other.token })).status).toBe(404);
  });

  it("refuses what GitLab refuses, with its messages", async () => {
    const parent = await newGroup(owner.token);
    const child = await newGroup(owner.token, { parent_id: parent.id });
    const grandchild = await newGroup(owner.token, { parent_id: child.id });
    const fail = (message: string) => ({ status: 400, body: { message: `Transfer failed: ${message}` } });
    expect(await api("POST", `/api/v4/groups/${parent.id}/transfer`, { token: owner.token })).toMatchObject(fail("Group is already a root group."));
    expect(await api("POST", `/api/v4/groups/${child.id}/transfer`, { token: owner.token, body: { group_id: parent.id } })).toMatchObject(fail("Group is already associated to the parent group."));
    expect(await api("POST", `/api/v4/groups/${parent.id}/transfer`, { token: owner.token, body: { group_id: grandchild.id } })).toMatchObject(fail("Cannot transfer group to one of its subgroup."));
    // A sibling path under the new parent, group or project, is taken.
    const elsewhere = await newGroup(owner.token);
    await newGroup(owner.token, { parent_id: elsewhere.id, path: child.path });
    expect(await api("POST", `/api/v4/groups/${child.id}/transfer`, { token: owner.token, body: { group_id: elsewhere.id } })).toMatchObject(fail("The parent group already has a subgroup or a project with the same path."));
    const withProject = await newGroup(owner.token);
    await newProject(owner.token, { namespace_id: withProject.id, path: grandchild.path });
    expect(await api("POST", `/api/v4/groups/${grandchild.id}/transfer`, { token: owner.token, body: { group_id: withProject.id } })).toMatchObject(fail("The parent group already has a subgroup or a project with the same path."));
    expect((await byPath("groups", grandchild.full_path)).body.id).toBe(grandchild.id);
  });

  it("needs the group's Owner and Maintainer in the new parent, and valid input", async () => {
    const group = await newGroup(owner.token, { parent_id: (await newGroup(owner.token)).id });
    const target = await newGroup(owner.token);
    expect((await api("POST", `/api/v4/groups/${group.id}/transfer`, {})).status).toBe(401);
    await addMember("groups", group.id, other.id, 40);
    expect((await api("POST", `/api/v4/groups/${group.id}/transfer`, { token: other.token })).status).toBe(403);
    const own = await newGroup(other.token);
    expect(await api("POST", `/api/v4/groups/${own.id}/transfer`, { token: other.token, body: { group_id: target.id } })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    await addMember("groups", target.id, other.id, 30);
    expect(await api("POST", `/api/v4/groups/${own.id}/transfer`, { token: other.token, body: { group_id: target.id } })).toMatchObject({
      status: 400,
      body: { message: "Transfer failed: You don't have enough permissions." },
    });
    expect((await api("POST", `/api/v4/groups/${group.id}/transfer`, { token: owner.token, body: { group_id: "abc" } })).status).toBe(400);
    expect(await api("POST", `/api/v4/groups/${group.id}/transfer`, { token: owner.token, body: { group_id: [target.id], parent: 1 } })).toMatchObject({ status: 400, body: { error: "group_id is invalid" } });
  });

  it("is refused while a project below the group is being moved", async () => {
    const group = await newGroup(owner.token);
    const sub = await newGroup(owner.token, { parent_id: group.id });
    const project = await newProject(owner.token, { namespace_id: sub.id });
    const target = await newGroup(owner.token);
    await setReadOnly(project.id, true);
    try {
      expect(await api("POST", `/api/v4/groups/${group.id}/transfer`, { token: owner.token, body: { group_id: target.id } })).toMatchObject(READ_ONLY);
    } finally {
      await setReadOnly(project.id, false);
    }
    expect((await api("GET", `/api/v4/groups/${group.id}`, { token: owner.token })).body.full_path).toBe(group.full_path);
  });

  it("moves a tree too large for one transaction in phases, and gives back every new path when one is taken", async () => {
    const root = await newGroup(owner.token);
    // 35 groups: over DynamoDB's 100 items per transaction (a claim, a release and a rewrite each).
    const subs = [];
    for (let i = 0; i < 34; i++) subs.push(await newGroup(owner.token, { parent_id: root.id, path: `sub${i}` }));
    const target = await newGroup(owner.token);
    const base = `${target.full_path}/${root.path}`;

    // Someone else holds one of the new paths: the transfer is refused and claims nothing.
    const blocker = pathClaimKey(`${base}/sub33`);
    await putItem({ ...blocker, kind: "group", ownerId: 999_999_999 });
    const refused = await api("POST", `/api/v4/groups/${root.id}/transfer`, { token: owner.token, body: { group_id: target.id } });
    expect(refused).toMatchObject({ status: 400, body: { message: "Transfer failed: The parent group already has a subgroup or a project with the same path." } });
    expect((await byPath("groups", base)).status).toBe(404);
    expect((await byPath("groups", `${base}/sub0`)).status).toBe(404);
    expect((await byPath("groups", `${root.full_path}/sub0`)).body.id).toBe(subs[0].id);
    await deleteItem(blocker.pk, blocker.sk);

    const moved = await api("POST", `/api/v4/groups/${root.id}/transfer`, { token: owner.token, body: { group_id: target.id } });
    expect(moved).toMatchObject({ status: 201, body: { full_path: base } });
    for (const i of [0, 17, 33]) expect((await byPath("groups", `${base}/sub${i}`)).body).toMatchObject({ id: subs[i].id, full_path: `${base}/sub${i}` });
    expect((await byPath("groups", `${root.full_path}/sub5`)).status).toBe(404);
  });
});
