import { describe, it, expect, beforeAll } from "vitest";
import { existsSync } from "node:fs";
import { api, newUser, unique } from "../support/api.js";
import { commitSubjects, fsck, git, repoPaths } from "../support/git.js";
import { getItem, updateItem } from "../../functions/platform/db/table.js";

const READ_ONLY = { message: "The repository is temporarily read-only. Please try again later." };
let owner: Awaited<ReturnType<typeof newUser>>;

beforeAll(async () => {
  owner = await newUser();
});

async function newGroup(visibility = "private") {
  const res = await api("POST", "/api/v4/groups", { token: owner.token, body: { name: "Wiki group", path: unique("wg"), visibility } });
  expect(res.status).toBe(201);
  return res.body as { id: number; full_path: string };
}

const groupItem = (id: number) => getItem<Record<string, unknown>>(`GROUP#${id}`, "GROUP");

async function newPage(groupId: number | string, body: Record<string, unknown>, token = owner.token) {
  return api("POST", `/api/v4/groups/${groupId}/wikis`, { token, body });
}

/** The wiki's primary repository directory, from the storage recorded on the group item. */
async function wikiDir(groupId: number) {
  const item = await groupItem(groupId);
  return repoPaths(item!.storage as string, "group-wiki", groupId)[0]!;
}

describe("group wikis", () => {
  it("creates the wiki repository with the first page only, on the storage chosen by the weights", async () => {
    const group = await newGroup();
    expect((await groupItem(group.id))!.storage).toBeUndefined();
    expect((await api("GET", `/api/v4/groups/${group.id}/wikis`, { token: owner.token })).body).toEqual([]);
    expect((await api("GET", `/api/v4/groups/${group.id}/wikis/Home`, { token: owner.token })).body).toEqual({ message: "404 Wiki Page Not Found" });
    for (const storage of ["default", "secondary", "cluster"]) expect(existsSync(repoPaths(storage, "group-wiki", group.id)[0]!)).toBe(false);
    // The shared runtime keeps GitLab's default weights (default = 100); other weights are tested on
    // a private runtime in storage-weights.test.ts, since weights are instance-wide.
    const first = await newPage(group.id, { title: "Hello World", content: "# Hi\n" });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ content: "# Hi\n", format: "markdown", slug: "Hello-World", title: "Hello World", encoding: "UTF-8" });
    const item = await groupItem(group.id);
    expect(item).toMatchObject({ storage: "default", readOnly: false, gsi2pk: "STORAGE#default#group", relativePath: expect.stringMatching(/^@groups\/.+\.wiki\.git$/) });
    for (const replica of repoPaths("default", "group-wiki", group.id)) {
      fsck(replica);
      expect(commitSubjects(replica)).toEqual(["Create Hello World"]);
      expect(git(replica, "show", "main:Hello-World.md")).toBe("# Hi\n");
    }
    // The second page lands in the same repository.
    expect((await newPage(group.id, { title: "Second", content: "2", format: "org" })).status).toBe(201);
    expect(await groupItem(group.id)).toMatchObject({ storage: "default", relativePath: item!.relativePath });
    const dir = repoPaths("default", "group-wiki", group.id)[0]!;
    expect(commitSubjects(dir)).toEqual(["Create Second", "Create Hello World"]);
    expect(git(dir, "ls-tree", "--name-only", "main").trim().split("\n")).toEqual(["Hello-World.md", "Second.org"]);
  });

  it("reads, lists, renames, reformats and deletes pages, each change a commit", async () => {
    const group = await newGroup();
    expect((await newPage(group.full_path.replace("/", "%2F"), { title: "Setup Guide", content: "setup" })).status).toBe(201);
    expect((await newPage(group.id, { title: "docs/Deep Page", content: "deep", format: "asciidoc" })).status).toBe(201);
    const one = await api("GET", `/api/v4/groups/${group.id}/wikis/Setup-Guide`, { token: owner.token });
    expect(one.body).toEqual({ content: "setup", format: "markdown", slug: "Setup-Guide", title: "Setup Guide", encoding: "UTF-8" });
    const deep = await api("GET", `/api/v4/groups/${group.id}/wikis/${encodeURIComponent("docs/Deep-Page")}`, { token: owner.token });
    expect(deep.body).toMatchObject({ content: "deep", format: "asciidoc", slug: "docs/Deep-Page", title: "Deep Page" });
    const list = await api("GET", `/api/v4/groups/${group.id}/wikis`, { token: owner.token });
    expect(list.body).toEqual([
      { format: "markdown", slug: "Setup-Guide", title: "Setup Guide" },
      { format: "asciidoc", slug: "docs/Deep-Page", title: "Deep Page" },
    ]);
    const withContent = await api("GET", `/api/v4/groups/${group.id}/wikis?with_content=true`, { token: owner.token });
    expect(withContent.body.map((p: { content: string }) => p.content)).toEqual(["setup", "deep"]);
    const edited = await api("PUT", `/api/v4/groups/${group.id}/wikis/Setup-Guide`, { token: owner.token, body: { content: "v2" } });
    expect(edited.body).toMatchObject({ content: "v2", slug: "Setup-Guide", format: "markdown" });
    const renamed = await api("PUT", `/api/v4/groups/${group.id}/wikis/Setup-Guide`, { token: owner.token, body: { title: "Install Guide", format: "rdoc" } });
    expect(renamed.body).toEqual({ content: "v2", format: "rdoc", slug: "Install-Guide", title: "Install Guide", encoding: "UTF-8" });
    expect((await api("GET", `/api/v4/groups/${group.id}/wikis/Setup-Guide`, { token: owner.token })).status).toBe(404);
    const dir = await wikiDir(group.id);
    fsck(dir);
    expect(git(dir, "show", "main:Install-Guide.rdoc")).toBe("v2");
    const dup = await api("PUT", `/api/v4/groups/${group.id}/wikis/Install-Guide`, { token: owner.token, body: { title: "docs/Deep Page" } });
    expect(dup).toMatchObject({ status: 400, body: { message: "Duplicate page: A page with that title already exists" } });
    const gone = await api("DELETE", `/api/v4/groups/${group.id}/wikis/Install-Guide`, { token: owner.token });
    expect(gone.status).toBe(204);
    expect((await api("GET", `/api/v4/groups/${group.id}/wikis/Install-Guide`, { token: owner.token })).body).toEqual({ message: "404 Wiki Page Not Found" });
    expect((await api("DELETE", `/api/v4/groups/${group.id}/wikis/Install-Guide`, { token: owner.token })).status).toBe(404);
    fsck(dir);
    expect(commitSubjects(dir)).toEqual(["Delete Install Guide", "Update Install Guide", "Update Setup Guide", "Create Deep Page", "Create Setup Guide"]);
    expect(git(dir, "ls-tree", "-r", "--name-only", "main").trim()).toBe("docs/Deep-Page.asciidoc");
  });

  it("validates page input", async () => {
    const group = await newGroup();
    const noTitle = await newPage(group.id, { content: "x" });
    expect(noTitle).toMatchObject({ status: 400, body: { error: "title is missing" } });
    const noContent = await newPage(group.id, { title: "x" });
    expect(noContent).toMatchObject({ status: 400, body: { error: "content is missing" } });
    expect(await newPage(group.id, { title: "x", content: 5 })).toMatchObject({ status: 400, body: { error: "content is invalid" } });
    expect(await newPage(group.id, { title: "x", content: "x", format: "html" })).toMatchObject({ status: 400, body: { error: "format does not have a valid value" } });
    expect(await newPage(group.id, { title: "a//b", content: "x" })).toMatchObject({ status: 400, body: { error: "title is invalid" } });
    // Nothing valid was sent, so no wiki repository was created.
    expect((await groupItem(group.id))!.storage).toBeUndefined();
    // An undeclared parameter is dropped, not refused (Grape's `declared(params)`).
    const created = await newPage(group.id, { title: "Page", content: "x", colour: "red" });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty("colour");
    expect(await newPage(group.id, { title: "Page", content: "y", format: "org" })).toMatchObject({ status: 400, body: { message: "Duplicate page: A page with that title already exists" } });
    const empty = await api("PUT", `/api/v4/groups/${group.id}/wikis/Page`, { token: owner.token, body: {} });
    expect(empty).toMatchObject({ status: 400, body: { error: expect.stringContaining("at least one parameter must be provided") } });
    expect(commitSubjects(await wikiDir(group.id))).toEqual(["Create Page"]);
  });

  it("lets Guests read and Developers write; hides private groups from non-members", async () => {
    const group = await newGroup();
    expect((await newPage(group.id, { title: "Home", content: "home" })).status).toBe(201);
    const [guest, developer, stranger] = await Promise.all([newUser(), newUser(), newUser()]);
    const reader = await newUser({ scopes: ["read_api"] });
    for (const [user, level] of [[guest, 10], [developer, 30], [reader, 30]] as const) {
      expect((await api("POST", `/api/v4/groups/${group.id}/members`, { token: owner.token, body: { user_id: user.id, access_level: level } })).status).toBe(201);
    }
    expect((await api("GET", `/api/v4/groups/${group.id}/wikis/Home`, { token: guest.token })).body.content).toBe("home");
    expect(await newPage(group.id, { title: "Guest page", content: "g" }, guest.token)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await api("PUT", `/api/v4/groups/${group.id}/wikis/Home`, { token: guest.token, body: { content: "g" } })).status).toBe(403);
    expect((await api("DELETE", `/api/v4/groups/${group.id}/wikis/Home`, { token: guest.token })).status).toBe(403);
    expect((await newPage(group.id, { title: "Dev page", content: "d" }, developer.token)).status).toBe(201);
    expect((await api("PUT", `/api/v4/groups/${group.id}/wikis/Home`, { token: developer.token, body: { content: "dev" } })).status).toBe(200);
    expect((await api("GET", `/api/v4/groups/${group.id}/wikis`, { token: reader.token })).status).toBe(200);
    expect(await newPage(group.id, { title: "Scoped", content: "s" }, reader.token)).toMatchObject({ status: 403, body: { error: "insufficient_scope" } });
    expect((await newPage(group.id, { title: "Anon", content: "a" }, "")).status).toBe(401);
    for (const res of [
      await api("GET", `/api/v4/groups/${group.id}/wikis`, { token: stranger.token }),
      await api("GET", `/api/v4/groups/${group.id}/wikis/Home`),
      await newPage(group.id, { title: "Stranger", content: "s" }, stranger.token),
      await api("DELETE", `/api/v4/groups/${group.id}/wikis/Home`, { token: stranger.token }),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    }
    const open = await newGroup("public");
    expect((await newPage(open.id, { title: "Open", content: "o" })).status).toBe(201);
    expect((await api("GET", `/api/v4/groups/${open.id}/wikis/Open`)).body.content).toBe("o");
    expect((await newPage(open.id, { title: "Stranger", content: "s" }, stranger.token)).status).toBe(403);
    const dir = await wikiDir(group.id);
    expect(commitSubjects(dir)).toEqual(["Update Home", "Create Dev page", "Create Home"]);
    expect(git(dir, "log", "-1", "--format=%an", "main").trim()).toBe(`User ${developer.username}`);
  });

  it("refuses page writes while the wiki is read-only and changes nothing", async () => {
    const group = await newGroup();
    expect((await newPage(group.id, { title: "Home", content: "home" })).status).toBe(201);
    const dir = await wikiDir(group.id);
    await updateItem({ pk: `GROUP#${group.id}`, sk: "GROUP", update: "SET readOnly = :t", values: { ":t": true } });
    const created = await newPage(group.id, { title: "Blocked", content: "b" });
    expect(created.status).toBe(409);
    expect(created.body).toEqual(READ_ONLY);
    expect(created.headers.get("retry-after")).toBe("30");
    expect((await api("PUT", `/api/v4/groups/${group.id}/wikis/Home`, { token: owner.token, body: { content: "x" } })).body).toEqual(READ_ONLY);
    expect((await api("DELETE", `/api/v4/groups/${group.id}/wikis/Home`, { token: owner.token })).status).toBe(409);
    expect(commitSubjects(dir)).toEqual(["Create Home"]);
    expect((await api("GET", `/api/v4/groups/${group.id}/wikis/Home`, { token: owner.token })).body.content).toBe("home");
    // A read-only group without a wiki yet does not get one either.
    const fresh = await newGroup();
    await updateItem({ pk: `GROUP#${fresh.id}`, sk: "GROUP", update: "SET readOnly = :t", values: { ":t": true } });
    expect((await newPage(fresh.id, { title: "First", content: "f" })).status).toBe(409);
    expect((await groupItem(fresh.id))!.storage).toBeUndefined();
  });
});
