import { describe, it, expect, beforeAll } from "vitest";
import { api, adminToken, newUser, unique } from "../support/api.js";
import { commitSubjects, fsck, git, repoPaths } from "../support/git.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { memberKey } from "../../functions/hosting/domain/keys.js";

let owner: Awaited<ReturnType<typeof newUser>>;

beforeAll(async () => {
  owner = await newUser();
});

async function newProject(token: string, body: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/v4/projects", { token, body: { name: unique("proj"), initialize_with_readme: true, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

describe("projects and their repositories", () => {
  it("creates the repository on the default-weighted storage, with a README that git can read", async () => {
    const project = await newProject(owner.token);
    const asAdmin = await api("GET", `/api/v4/projects/${project.id}`, { token: adminToken() });
    expect(asAdmin.body.repository_storage).toBe("default");
    expect(project.repository_storage).toBeUndefined();
    const [dir] = repoPaths("default", "project", project.id);
    fsck(dir!);
    expect(commitSubjects(dir!)).toEqual(["Initial commit"]);
    expect(git(dir!, "show", "main:README.md")).toContain(`# ${project.name}`);
  });

  it("writes commits through the API that appear in git log, the tree and raw files", async () => {
    const project = await newProject(owner.token);
    const commit = await api("POST", `/api/v4/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: {
        branch: "main",
        commit_message: "Add sources",
        actions: [
          { action: "create", file_path: "src/app.ts", content: "export const x = 1;\n" },
          { action: "update", file_path: "README.md", content: "changed\n" },
        ],
      },
    });
    expect(commit.status).toBe(201);
    expect(commit.body).toMatchObject({ title: "Add sources", author_name: `User ${owner.username}` });
    const [dir] = repoPaths("default", "project", project.id);
    fsck(dir!);
    expect(commitSubjects(dir!)).toEqual(["Add sources", "Initial commit"]);
    expect(git(dir!, "rev-parse", "main").trim()).toBe(commit.body.id);
    const tree = await api("GET", `/api/v4/projects/${project.id}/repository/tree?recursive=true`, { token: owner.token });
    expect(tree.body.map((t: { path: string }) => t.path).sort()).toEqual(["README.md", "src", "src/app.ts"]);
    const raw = await api("GET", `/api/v4/projects/${project.id}/repository/files/${encodeURIComponent("src/app.ts")}/raw?ref=main`, { token: owner.token });
    expect(raw.text).toBe("export const x = 1;\n");
    const log = await api("GET", `/api/v4/projects/${project.id}/repository/commits?per_page=1`, { token: owner.token });
    expect(log.body[0].id).toBe(commit.body.id);
    expect(log.headers.get("x-next-page")).toBe("2");
    const bad = await api("POST", `/api/v4/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: { branch: "main", commit_message: "dup", actions: [{ action: "create", file_path: "README.md", content: "x" }] },
    });
    expect(bad.status).toBe(400);
    expect(commitSubjects(dir!)).toHaveLength(2);
  });

  it("finds a project by URL-encoded path and lists it by storage for admins only", async () => {
    const project = await newProject(owner.token);
    const byPath = await api("GET", `/api/v4/projects/${encodeURIComponent(project.path_with_namespace)}`, { token: owner.token });
    expect(byPath.body.id).toBe(project.id);
    const listed = await api("GET", "/api/v4/projects?repository_storage=default&per_page=100", { token: adminToken() });
    expect(listed.body.some((p: { id: number }) => p.id === project.id)).toBe(true);
    expect(listed.body.every((p: { repository_storage: string }) => p.repository_storage === "default")).toBe(true);
    expect((await api("GET", "/api/v4/projects?repository_storage=default", { token: owner.token })).status).toBe(403);
    const none = await api("GET", "/api/v4/projects?repository_storage=cluster&per_page=100", { token: adminToken() });
    expect(none.body.some((p: { id: number }) => p.id === project.id)).toBe(false);
  });

  it("keeps one linear, valid history under concurrent writers", async () => {
    const project = await newProject(owner.token);
    const writers = Array.from({ length: 8 }, (_, i) =>
      api("POST", `/api/v4/projects/${project.id}/repository/commits`, {
        token: owner.token,
        body: { branch: "main", commit_message: `writer ${i}`, actions: [{ action: "create", file_path: `file-${i}.txt`, content: `${i}\n` }] },
      }),
    );
    const results = await Promise.all(writers);
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const [dir] = repoPaths("default", "project", project.id);
    fsck(dir!);
    const subjects = commitSubjects(dir!);
    expect(subjects).toHaveLength(9);
    expect(new Set(subjects.slice(0, 8))).toEqual(new Set(Array.from({ length: 8 }, (_, i) => `writer ${i}`)));
    expect(git(dir!, "ls-tree", "--name-only", "main").trim().split("\n")).toHaveLength(9);
  });

  it("refuses writes while the repository is read-only and changes nothing", async () => {
    const project = await newProject(owner.token);
    await updateItem({ pk: `PROJECT#${project.id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    const res = await api("POST", `/api/v4/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: { branch: "main", commit_message: "blocked", actions: [{ action: "create", file_path: "x.txt", content: "x" }] },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "The repository is temporarily read-only. Please try again later." });
    expect(res.headers.get("retry-after")).toBe("30");
    const [dir] = repoPaths("default", "project", project.id);
    expect(commitSubjects(dir!)).toEqual(["Initial commit"]);
    expect((await api("DELETE", `/api/v4/projects/${project.id}`, { token: owner.token })).status).toBe(409);
  });

  it("updates feature settings such as monitor_access_level and deletes the repository with the project", async () => {
    const project = await newProject(owner.token);
    const updated = await api("PUT", `/api/v4/projects/${project.id}`, { token: owner.token, body: { monitor_access_level: "disabled", description: "d" } });
    expect(updated.body).toMatchObject({ monitor_access_level: "disabled", description: "d", name: project.name });
    const bad = await api("PUT", `/api/v4/projects/${project.id}`, { token: owner.token, body: { monitor_access_level: "sometimes" } });
    expect(bad).toMatchObject({ status: 400, body: { error: "monitor_access_level does not have a valid value" } });
    const [dir] = repoPaths("default", "project", project.id);
    expect((await api("DELETE", `/api/v4/projects/${project.id}`, { token: owner.token })).status).toBe(202);
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: owner.token })).status).toBe(404);
    const { existsSync } = await import("node:fs");
    expect(existsSync(dir!)).toBe(false);
  });

  it("validates project input", async () => {
    const none = await api("POST", "/api/v4/projects", { token: owner.token, body: {} });
    expect(none.status).toBe(400);
    const badPath = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: "x", path: "-bad" } });
    expect(badPath.status).toBe(400);
    const wrongType = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: ["x"] } });
    expect(wrongType).toMatchObject({ status: 400, body: { error: "name is invalid" } });
    const name = unique("dup");
    await newProject(owner.token, { name, initialize_with_readme: false });
    const dup = await api("POST", "/api/v4/projects", { token: owner.token, body: { name } });
    expect(dup).toMatchObject({ status: 400, body: { message: { path: ["has already been taken"] } } });
  });
});

describe("groups and membership", () => {
  it("lets a group member reach group projects by inherited level and hides private ones from others", async () => {
    const group = await api("POST", "/api/v4/groups", { token: owner.token, body: { name: "G", path: unique("grp") } });
    expect(group.status).toBe(201);
    const project = await newProject(owner.token, { namespace_id: group.body.id });
    expect(project.path_with_namespace).toBe(`${group.body.full_path}/${project.path}`);
    const dev = await newUser();
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: dev.token })).status).toBe(404);
    const add = await api("POST", `/api/v4/groups/${group.body.id}/members`, { token: owner.token, body: { user_id: dev.id, access_level: 30 } });
    expect(add).toMatchObject({ status: 201, body: { id: dev.id, access_level: 30 } });
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: dev.token })).status).toBe(200);
    // A Developer commits (to a branch of their own: the default branch is protected, as on GitLab).
    const commit = await api("POST", `/api/v4/projects/${project.id}/repository/commits`, {
      token: dev.token,
      body: { branch: "dev", start_branch: "main", commit_message: "dev", actions: [{ action: "create", file_path: "d.txt", content: "d" }] },
    });
    expect(commit.status).toBe(201);
    expect((await api("PUT", `/api/v4/projects/${project.id}`, { token: dev.token, body: { description: "x" } })).status).toBe(403);
    const members = await api("GET", `/api/v4/groups/${group.body.id}/members`, { token: dev.token });
    expect(members.body.map((m: { id: number }) => m.id).sort()).toEqual([owner.id, dev.id].sort());
    expect((await api("DELETE", `/api/v4/groups/${group.body.id}/members/${dev.id}`, { token: owner.token })).status).toBe(204);
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: dev.token })).status).toBe(404);
    // A group is deleted with its projects (group-deletion.test.ts).
    expect((await api("DELETE", `/api/v4/groups/${group.body.id}`, { token: owner.token })).status).toBe(202);
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: owner.token })).status).toBe(404);
  });

  it("lists the private projects of a member's groups and their subgroups, as GitLab's inherited membership does", async () => {
    const group = await api("POST", "/api/v4/groups", { token: owner.token, body: { name: "Inherit", path: unique("inh") } });
    const sub = await api("POST", "/api/v4/groups", { token: owner.token, body: { name: "Sub", path: unique("sub"), parent_id: group.body.id, visibility: "private" } });
    expect(sub.status).toBe(201);
    const top = await newProject(owner.token, { namespace_id: group.body.id, visibility: "private" });
    const nested = await newProject(owner.token, { namespace_id: sub.body.id, visibility: "private" });
    const member = await newUser();
    const outsider = await newUser();
    const ids = async (token: string, query: string) =>
      ((await api("GET", `/api/v4/projects?per_page=100${query}`, { token })).body as Array<{ id: number }>).map((p) => p.id);
    expect(await ids(member.token, "")).not.toContain(top.id);

    await api("POST", `/api/v4/groups/${group.body.id}/members`, { token: owner.token, body: { user_id: member.id, access_level: 20 } });
    for (const query of ["", "&membership=true"]) {
      expect(await ids(member.token, query)).toEqual(expect.arrayContaining([nested.id, top.id]));
      expect(await ids(outsider.token, query)).not.toEqual(expect.arrayContaining([top.id]));
      expect(await ids(outsider.token, query)).not.toContain(nested.id);
    }
    const groups = ((await api("GET", "/api/v4/groups?per_page=100", { token: member.token })).body as Array<{ id: number }>).map((g) => g.id);
    expect(groups).toEqual(expect.arrayContaining([group.body.id, sub.body.id]));
    // Newest first across every source, as for direct memberships.
    const listed = await ids(member.token, "&membership=true");
    expect(listed.indexOf(nested.id)).toBeLessThan(listed.indexOf(top.id));

    // An expired group membership grants nothing, in the list as on the project itself.
    await updateItem({ ...memberKey("group", group.body.id, member.id), update: "SET expiresAt = :past", values: { ":past": "2020-01-01" } });
    expect((await api("GET", `/api/v4/projects/${top.id}`, { token: member.token })).status).toBe(404);
    expect(await ids(member.token, "&membership=true")).not.toContain(top.id);
    expect(((await api("GET", "/api/v4/groups?per_page=100", { token: member.token })).body as Array<{ id: number }>).map((g) => g.id)).not.toContain(sub.body.id);
  });

  it("manages project members and refuses granting more than one's own level", async () => {
    const project = await newProject(owner.token);
    const m = await newUser();
    const add = await api("POST", `/api/v4/projects/${project.id}/members`, { token: owner.token, body: { user_id: m.id, access_level: 40 } });
    expect(add.status).toBe(201);
    const escalate = await api("POST", `/api/v4/projects/${project.id}/members`, { token: m.token, body: { user_id: (await newUser()).id, access_level: 50 } });
    expect(escalate.status).toBe(403);
    const badLevel = await api("POST", `/api/v4/projects/${project.id}/members`, { token: owner.token, body: { user_id: m.id, access_level: 35 } });
    expect(badLevel.status).toBe(400);
    const dup = await api("POST", `/api/v4/projects/${project.id}/members`, { token: owner.token, body: { user_id: m.id, access_level: 30 } });
    expect(dup.status).toBe(409);
    const list = await api("GET", `/api/v4/projects?membership=true&per_page=100`, { token: m.token });
    expect(list.body.some((p: { id: number }) => p.id === project.id)).toBe(true);
  });
});
