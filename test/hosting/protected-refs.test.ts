/**
 * GitLab's protected branches and protected tags APIs (`/projects/:id/protected_branches`,
 * `/protected_tags`), the default branch protection new projects get (per group here; the
 * instance's setting in `protected-refs-settings.test.ts`), and the protection every API write that
 * moves a ref obeys: commits, files, cherry-pick, revert, changelog, branch and tag creation and
 * deletion, merged-branch cleanup. Empty repository branch creation, as GitLab does it.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, newUser, unique } from "../support/api.js";
import { commitSubjects, git, repoPaths } from "../support/git.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { newGroup, projectRoles, type User } from "./support.js";
import { matchesRef } from "../../functions/hosting/domain/protected-refs.js";

let owner: User;
beforeAll(async () => {
  owner = await newUser();
});

async function newProject(body: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("prot"), initialize_with_readme: true, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; path_with_namespace: string };
}

const branches = (id: number) => `/api/v4/projects/${id}/protected_branches`;
const tags = (id: number) => `/api/v4/projects/${id}/protected_tags`;
const repo = (id: number) => `/api/v4/projects/${id}/repository`;
const enc = encodeURIComponent;

async function setReadOnly(id: number, readOnly: boolean) {
  await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :r", values: { ":r": readOnly } });
}

async function commit(id: number, token: string, branch: string, start_branch?: string) {
  const actions = [{ action: "create", file_path: `${unique("f")}.txt`, content: branch }];
  return api("POST", `${repo(id)}/commits`, { token, body: { branch, start_branch, commit_message: `on ${branch}`, actions } });
}

const FULL = {
  id: expect.any(Number),
  name: "main",
  push_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: "Maintainers" }],
  merge_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: "Maintainers" }],
  unprotect_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: "Maintainers" }],
  allow_force_push: false,
  code_owner_approval_required: false,
};

describe("protected branches API", () => {
  it("protects a new project's default branch as GitLab does: Maintainers push and merge, no force push", async () => {
    const { id } = await newProject();
    const list = await api("GET", branches(id), { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([FULL]);
    expect(await api("GET", `${branches(id)}/main`, { token: owner.token })).toMatchObject({ status: 200, body: FULL });
    // An empty project is protected from the start too (GitLab: from its first push).
    const empty = await newProject({ initialize_with_readme: false });
    expect((await api("GET", branches(empty.id), { token: owner.token })).body).toEqual([FULL]);
  });

  it("protects, changes and unprotects branches and wildcards, in GitLab's words (python-gitlab's flow)", async () => {
    const { id } = await newProject();
    // python-gitlab: protectedbranches.create({"name": "*-stable", "allow_force_push": False})
    const created = await api("POST", branches(id), { token: owner.token, body: { name: "*-stable", allow_force_push: false } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "*-stable", allow_force_push: false, push_access_levels: [{ access_level: 40 }] });
    expect((await api("GET", branches(id), { token: owner.token })).body.map((b: { name: string }) => b.name)).toEqual(["main", "*-stable"]);
    // p_b.allow_force_push = True; p_b.save() — a PATCH to the URL-encoded name.
    const patched = await api("PATCH", `${branches(id)}/${enc("*-stable")}`, { token: owner.token, body: { allow_force_push: true } });
    expect(patched).toMatchObject({ status: 200, body: { name: "*-stable", allow_force_push: true } });
    expect((await api("GET", `${branches(id)}/${enc("*-stable")}`, { token: owner.token })).body.allow_force_push).toBe(true);
    expect((await api("DELETE", `${branches(id)}/${enc("*-stable")}`, { token: owner.token })).status).toBe(204);
    expect((await api("GET", branches(id), { token: owner.token })).body.map((b: { name: string }) => b.name)).toEqual(["main"]);

    // Levels given as the doc's example gives them, in the query string.
    const levels = await api("POST", `${branches(id)}?name=release%2F*&push_access_level=30&merge_access_level=30&unprotect_access_level=40`, { token: owner.token });
    expect(levels.status, levels.text).toBe(201);
    expect(levels.body).toMatchObject({
      name: "release/*",
      push_access_levels: [{ access_level: 30, access_level_description: "Developers + Maintainers" }],
      merge_access_levels: [{ access_level: 30, access_level_description: "Developers + Maintainers" }],
    });
    const none = await api("POST", branches(id), { token: owner.token, body: { name: "frozen", push_access_level: 0, merge_access_level: 60 } });
    expect(none.body).toMatchObject({ push_access_levels: [{ access_level: 0, access_level_description: "No one" }], merge_access_levels: [{ access_level: 60, access_level_description: "Instance admins" }] });
    // A wildcard is found by its own name, not by the names it matches.
    expect(await api("GET", `${branches(id)}/${enc("release/1.0")}`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await api("GET", `${branches(id)}?search=REL`, { token: owner.token })).body.map((b: { name: string }) => b.name)).toEqual(["release/*"]);
    const page = await api("GET", `${branches(id)}?per_page=1&page=2`, { token: owner.token });
    expect(page.body.map((b: { name: string }) => b.name)).toEqual(["release/*"]);
    expect(page.headers.get("x-total")).toBe("3");
  });

  it("answers GitLab's errors: taken (409), unknown (404), bad levels (400), below Maintainer (403)", async () => {
    const { id } = await newProject();
    expect(await api("POST", branches(id), { token: owner.token, body: { name: "main" } })).toMatchObject({ status: 409, body: { message: "Protected branch 'main' already exists" } });
    expect(await api("POST", branches(id), { token: owner.token, body: {} })).toMatchObject({ status: 400, body: { error: "name is missing" } });
    expect(await api("POST", branches(id), { token: owner.token, body: { name: "x", push_access_level: 20 } })).toMatchObject({ status: 400, body: { error: "push_access_level does not have a valid value" } });
    expect(await api("POST", branches(id), { token: owner.token, body: { name: "x", unprotect_access_level: 0 } })).toMatchObject({ status: 400 });
    for (const [method, body] of [["GET"], ["PATCH", { allow_force_push: true }], ["DELETE"]] as const) {
      expect(await api(method, `${branches(id)}/nope`, { token: owner.token, body })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    }
    const roles = await projectRoles(owner.token, id);
    for (const user of [roles.developer, roles.reporter]) {
      expect((await api("GET", branches(id), { token: user.token })).status).toBe(403);
      expect((await api("POST", branches(id), { token: user.token, body: { name: "x" } })).status).toBe(403);
      expect((await api("DELETE", `${branches(id)}/main`, { token: user.token })).status).toBe(403);
    }
    expect(await api("GET", branches(id), { token: roles.stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await api("GET", branches(id), { token: roles.maintainer.token })).status).toBe(200);
    // A rule only administrators may unprotect.
    expect((await api("POST", branches(id), { token: owner.token, body: { name: "locked", unprotect_access_level: 60 } })).status).toBe(201);
    expect((await api("DELETE", `${branches(id)}/locked`, { token: roles.owner.token })).status).toBe(403);
    const admin = await newUser({ admin: true });
    expect((await api("DELETE", `${branches(id)}/locked`, { token: admin.token })).status).toBe(204);
  });

  it("shows each branch's protection in the branches API", async () => {
    const { id } = await newProject();
    const roles = await projectRoles(owner.token, id);
    await api("POST", branches(id), { token: owner.token, body: { name: "dev-*", push_access_level: 30, merge_access_level: 30 } });
    await api("POST", `${repo(id)}/branches`, { token: owner.token, body: { branch: "dev-1", ref: "main" } });
    await api("POST", `${repo(id)}/branches`, { token: owner.token, body: { branch: "free", ref: "main" } });
    const list = await api("GET", `${repo(id)}/branches`, { token: roles.developer.token });
    const byName = Object.fromEntries(list.body.map((b: { name: string }) => [b.name, b]));
    expect(byName.main).toMatchObject({ protected: true, developers_can_push: false, developers_can_merge: false, can_push: false });
    expect(byName["dev-1"]).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: true, can_push: true });
    expect(byName.free).toMatchObject({ protected: false, developers_can_push: false, developers_can_merge: false, can_push: true });
  });

  it("gives a group's new projects the group's default branch protection", async () => {
    const partial = await newGroup(owner.token, { default_branch_protection: 1 });
    const shown = await api("GET", `/api/v4/groups/${partial.id}`, { token: owner.token });
    expect(shown.body).toMatchObject({
      default_branch_protection: 1,
      default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }], developer_can_initial_push: false },
    });
    const inPartial = await newProject({ namespace_id: partial.id });
    expect((await api("GET", branches(inPartial.id), { token: owner.token })).body).toEqual([
      { ...FULL, push_access_levels: [{ id: expect.any(Number), access_level: 30, access_level_description: "Developers + Maintainers" }] },
    ]);

    // Not protected (0), and the 17.0 hash form.
    const updated = await api("PUT", `/api/v4/groups/${partial.id}`, { token: owner.token, body: { default_branch_protection: 0 } });
    expect(updated.body).toMatchObject({ default_branch_protection: 0, default_branch_protection_defaults: { allow_force_push: true } });
    expect((await api("GET", branches((await newProject({ namespace_id: partial.id })).id), { token: owner.token })).body).toEqual([]);
    const hashed = await api("PUT", `/api/v4/groups/${partial.id}`, {
      token: owner.token,
      body: { default_branch_protection_defaults: { allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 30 }] } },
    });
    expect(hashed.body).toMatchObject({ default_branch_protection: 3 });
    const inHashed = await newProject({ namespace_id: partial.id, default_branch: "trunk" });
    expect((await api("GET", branches(inHashed.id), { token: owner.token })).body).toMatchObject([{ name: "trunk", push_access_levels: [{ access_level: 40 }], merge_access_levels: [{ access_level: 30 }] }]);
    expect(await api("PUT", `/api/v4/groups/${partial.id}`, { token: owner.token, body: { default_branch_protection: 5 } })).toMatchObject({
      status: 400,
      body: { error: "default_branch_protection does not have a valid value" },
    });
  });

  it("keeps at most 500 rules a project, on its item", async () => {
    const { id } = await newProject();
    const many = Object.fromEntries(Array.from({ length: 499 }, (_, i) => [`tag:t${i}`, { kind: "tag", id: 1_000_000 + i, name: `t${i}`, create: 40 }]));
    const main = { kind: "branch", id: 1, name: "main", push: 40, merge: 40, unprotect: 40, force: false };
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET protectedRefs = :r", values: { ":r": { ...many, "branch:main": main } } });
    expect((await api("GET", tags(id), { token: owner.token })).headers.get("x-total")).toBe("499");
    expect(await api("POST", tags(id), { token: owner.token, body: { name: "one-more" } })).toMatchObject({
      status: 422,
      body: { message: ["Project has too many protected branches and tags (500 at most)"] },
    });
    expect((await api("DELETE", `${tags(id)}/t0`, { token: owner.token })).status).toBe(204);
    expect((await api("POST", tags(id), { token: owner.token, body: { name: "one-more" } })).status).toBe(201);
  });

  it("leaves a project made before protected branches unprotected, until a rule is added", async () => {
    const { id } = await newProject();
    // Such a project's item has no rules at all (the data of an instance from before this feature).
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "REMOVE protectedRefs" });
    const roles = await projectRoles(owner.token, id);
    expect((await api("GET", branches(id), { token: owner.token })).body).toEqual([]);
    expect((await commit(id, roles.developer.token, "main")).status).toBe(201);
    const added = await api("POST", branches(id), { token: owner.token, body: { name: "main" } });
    expect(added.status, added.text).toBe(201);
    expect(await commit(id, roles.developer.token, "main")).toMatchObject({ status: 403 });
  });
});

describe("protected tags API", () => {
  it("protects and unprotects tags and wildcards, in GitLab's words", async () => {
    const { id } = await newProject();
    expect((await api("GET", tags(id), { token: owner.token })).body).toEqual([]);
    const created = await api("POST", tags(id), { token: owner.token, body: { name: "*-stable", create_access_level: 30 } });
    expect(created).toMatchObject({ status: 201, body: { name: "*-stable", create_access_levels: [{ id: expect.any(Number), access_level: 30, access_level_description: "Developers + Maintainers" }] } });
    expect(Object.keys(created.body)).toEqual(["name", "create_access_levels"]);
    const plain = await api("POST", tags(id), { token: owner.token, body: { name: "release-1-0" } });
    expect(plain.body).toMatchObject({ create_access_levels: [{ access_level: 40, access_level_description: "Maintainers" }] });
    expect((await api("GET", tags(id), { token: owner.token })).body.map((t: { name: string }) => t.name)).toEqual(["*-stable", "release-1-0"]);
    expect(await api("GET", `${tags(id)}/release-1-0`, { token: owner.token })).toMatchObject({ status: 200, body: { name: "release-1-0" } });
    expect(await api("POST", tags(id), { token: owner.token, body: { name: "release-1-0" } })).toMatchObject({ status: 422, body: { message: ["Name has already been taken"] } });
    expect(await api("POST", tags(id), { token: owner.token, body: { name: "x", create_access_level: 50 } })).toMatchObject({ status: 400, body: { error: "create_access_level does not have a valid value" } });
    expect((await api("DELETE", `${tags(id)}/${enc("*-stable")}`, { token: owner.token })).status).toBe(204);
    expect(await api("DELETE", `${tags(id)}/${enc("*-stable")}`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await api("GET", `${tags(id)}/nope`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    const roles = await projectRoles(owner.token, id);
    expect((await api("GET", tags(id), { token: roles.developer.token })).status).toBe(403);
    expect((await api("POST", tags(id), { token: roles.developer.token, body: { name: "y" } })).status).toBe(403);
    expect((await api("GET", tags(id), { token: roles.stranger.token })).status).toBe(404);
  });
});

describe("the API's writes obey protection", () => {
  it("refuses a Developer's commits, file edits, cherry-picks, reverts and changelogs on a protected branch; allows them elsewhere", async () => {
    const { id } = await newProject();
    const roles = await projectRoles(owner.token, id);
    const dev = roles.developer.token;
    const denied = { status: 403, body: { message: "403 Forbidden - You are not allowed to push into this branch" } };
    expect(await commit(id, dev, "main")).toMatchObject(denied);
    expect(await api("POST", `${repo(id)}/files/new.txt`, { token: dev, body: { branch: "main", content: "x", commit_message: "m" } })).toMatchObject(denied);
    expect(await api("PUT", `${repo(id)}/files/README.md`, { token: dev, body: { branch: "main", content: "x", commit_message: "m" } })).toMatchObject(denied);
    expect(await api("DELETE", `${repo(id)}/files/README.md`, { token: dev, body: { branch: "main", commit_message: "m" } })).toMatchObject(denied);
    // A new branch from main is the Developer's.
    const feature = await commit(id, dev, "feature", "main");
    expect(feature.status, feature.text).toBe(201);
    expect(await api("POST", `${repo(id)}/commits/${feature.body.id}/cherry_pick`, { token: dev, body: { branch: "main" } })).toMatchObject(denied);
    expect(await api("POST", `${repo(id)}/commits/${feature.body.id}/revert`, { token: dev, body: { branch: "main" } })).toMatchObject(denied);
    expect(await api("POST", `${repo(id)}/changelog`, { token: dev, body: { version: "1.0.0" } })).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden - You are not allowed to commit a changelog on this branch" },
    });
    // A Maintainer's go through.
    const picked = await api("POST", `${repo(id)}/commits/${feature.body.id}/cherry_pick`, { token: roles.maintainer.token, body: { branch: "main" } });
    expect(picked.status, picked.text).toBe(201);
    expect((await commit(id, roles.maintainer.token, "main")).status).toBe(201);
    // Developers + Maintainers may push: the Developer's commit goes through.
    await api("DELETE", `${branches(id)}/main`, { token: owner.token });
    await api("POST", branches(id), { token: owner.token, body: { name: "main", push_access_level: 30 } });
    expect((await commit(id, dev, "main")).status).toBe(201);
  });

  it("refuses creating and deleting protected branches and tags as GitLab's push checks do", async () => {
    const { id } = await newProject();
    const roles = await projectRoles(owner.token, id);
    const dev = roles.developer.token;
    await api("POST", branches(id), { token: owner.token, body: { name: "release/*" } });
    await api("POST", branches(id), { token: owner.token, body: { name: "hotfix-*", push_access_level: 40, merge_access_level: 30 } });
    expect(await api("POST", `${repo(id)}/branches`, { token: dev, body: { branch: "release/1", ref: "main" } })).toMatchObject({
      status: 400,
      body: { message: "You are not allowed to create protected branches on this project." },
    });
    // Those who may merge into it may create it from the API.
    expect((await api("POST", `${repo(id)}/branches`, { token: dev, body: { branch: "hotfix-1", ref: "main" } })).status).toBe(201);
    expect((await api("POST", `${repo(id)}/branches`, { token: roles.maintainer.token, body: { branch: "release/1", ref: "main" } })).status).toBe(201);
    expect(await api("DELETE", `${repo(id)}/branches/${enc("release/1")}`, { token: dev })).toMatchObject({
      status: 400,
      body: { message: "You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch." },
    });
    expect((await api("DELETE", `${repo(id)}/branches/${enc("release/1")}`, { token: roles.maintainer.token })).status).toBe(204);

    await api("POST", tags(id), { token: owner.token, body: { name: "v*" } });
    await api("POST", tags(id), { token: owner.token, body: { name: "frozen-*", create_access_level: 0 } });
    expect(await api("POST", `${repo(id)}/tags`, { token: dev, body: { tag_name: "v1", ref: "main" } })).toMatchObject({
      status: 400,
      body: { message: "You are not allowed to create this tag as it is protected." },
    });
    const made = await api("POST", `${repo(id)}/tags`, { token: roles.maintainer.token, body: { tag_name: "v1", ref: "main" } });
    expect(made).toMatchObject({ status: 201, body: { name: "v1", protected: true } });
    expect((await api("GET", `${repo(id)}/tags`, { token: dev })).body).toMatchObject([{ name: "v1", protected: true }]);
    expect((await api("DELETE", `${repo(id)}/tags/v1`, { token: dev })).status).toBe(403);
    expect((await api("DELETE", `${repo(id)}/tags/v1`, { token: roles.maintainer.token })).status).toBe(204);
    // No one creates a `frozen-*` tag, not even its Owner.
    expect(await api("POST", `${repo(id)}/tags`, { token: owner.token, body: { tag_name: "frozen-1", ref: "main" } })).toMatchObject({ status: 400 });
    expect(await api("POST", `${repo(id)}/tags`, { token: owner.token, body: { tag_name: "main", ref: "main" } })).toMatchObject({
      status: 400,
      body: { message: "You cannot use default branch name to create a tag" },
    });
  });
});

describe("DELETE /projects/:id/repository/merged_branches", () => {
  it("deletes the branches merged into the default branch, except protected ones, through the write path", async () => {
    const { id } = await newProject();
    const dir = repoPaths("default", "project", id)[0]!;
    for (const name of ["merged-a", "merged-b", "keep-1"]) git(dir, "branch", name, "main");
    await api("POST", branches(id), { token: owner.token, body: { name: "keep-*" } });
    expect((await commit(id, owner.token, "open", "main")).status).toBe(201);
    expect((await commit(id, owner.token, "main")).status).toBe(201);
    git(dir, "branch", "at-head", "main");

    await setReadOnly(id, true);
    expect(await api("DELETE", `${repo(id)}/merged_branches`, { token: owner.token })).toMatchObject({ status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } });
    await setReadOnly(id, false);
    const names = () => git(dir, "for-each-ref", "--format=%(refname:short)", "refs/heads").trim().split("\n");
    expect(names()).toEqual(["at-head", "keep-1", "main", "merged-a", "merged-b", "open"]);

    const roles = await projectRoles(owner.token, id);
    expect((await api("DELETE", `${repo(id)}/merged_branches`, { token: roles.reporter.token })).status).toBe(403);
    expect(await api("DELETE", `${repo(id)}/merged_branches`, { token: roles.developer.token })).toMatchObject({ status: 202, body: { message: "202 Accepted" } });
    // Not merged (`open`), protected (`keep-1`) or the default branch's own head (`at-head`, as GitLab's `merged`) stay.
    expect(names()).toEqual(["at-head", "keep-1", "main", "open"]);
  });
});

describe("a branch in an empty project", () => {
  it("commits an empty README.md to the default branch first, as GitLab does", async () => {
    const { id } = await newProject({ initialize_with_readme: false });
    const dir = repoPaths("default", "project", id)[0]!;
    const created = await api("POST", `${repo(id)}/branches`, { token: owner.token, body: { branch: "feature", ref: "main" } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "feature", default: false, protected: false, commit: { title: "Add README.md" } });
    expect(commitSubjects(dir, "main")).toEqual(["Add README.md"]);
    expect(git(dir, "rev-parse", "feature").trim()).toBe(git(dir, "rev-parse", "main").trim());
    expect(git(dir, "show", "main:README.md")).toBe("");
    expect(git(dir, "log", "-1", "--format=%an <%ae>", "main").trim()).toBe(`User ${owner.username} <${owner.username}@example.com>`);

    // A Developer may not make the first commit of a fully protected default branch.
    const other = await newProject({ initialize_with_readme: false });
    const roles = await projectRoles(owner.token, other.id);
    expect(await api("POST", `${repo(other.id)}/branches`, { token: roles.developer.token, body: { branch: "feature", ref: "main" } })).toMatchObject({
      status: 400,
      body: { message: "You are not allowed to push code to protected branches on this project." },
    });
    const byMaintainer = await api("POST", `${repo(other.id)}/branches`, { token: roles.maintainer.token, body: { branch: "feature", ref: "main" } });
    expect(byMaintainer.status, byMaintainer.text).toBe(201);
  });
});

describe("wildcard matching", () => {
  it("matches GitLab's way: the exact name, or `*` for any run of characters, slashes too", () => {
    expect(matchesRef("main", "main")).toBe(true);
    expect(matchesRef("main", "main2")).toBe(false);
    expect(matchesRef("release/*", "release/1.0")).toBe(true);
    expect(matchesRef("release/*", "release/")).toBe(true);
    expect(matchesRef("release/*", "release/a/b")).toBe(true);
    expect(matchesRef("release/*", "releases/1.0")).toBe(false);
    expect(matchesRef("*-stable", "1-stable")).toBe(true);
    expect(matchesRef("*-stable", "feature/x-stable")).toBe(true);
    expect(matchesRef("*-stable", "1-stable-2")).toBe(false);
    expect(matchesRef("release/*-stable", "release/2-stable")).toBe(true);
    expect(matchesRef("release/*-stable", "release/2-stable/x")).toBe(false);
    expect(matchesRef("*", "any/thing")).toBe(true);
    expect(matchesRef("a*b*c", "abxbyc")).toBe(true);
    expect(matchesRef("a*b*c", "abxbycd")).toBe(false);
    // Regular expression characters are themselves.
    expect(matchesRef("v1.*", "v1.0")).toBe(true);
    expect(matchesRef("v1.*", "v1x0")).toBe(false);
    expect(matchesRef("(x)+*", "(x)+y")).toBe(true);
  });

  it("answers a many-starred pattern against a long near-miss name (a backtracking regex would run for hours)", () => {
    const stars = "*a".repeat(8);
    expect(matchesRef(stars, `${"a".repeat(2000)}b`)).toBe(false);
    expect(matchesRef(`${stars}*`, `${"a".repeat(2000)}b`)).toBe(true);
    expect(matchesRef(stars, "a".repeat(2000))).toBe(true);
  });
});
