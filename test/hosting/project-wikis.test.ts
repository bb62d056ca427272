/**
 * Project wikis (`/projects/:id/wikis`): the group wiki API over `<project repository>.wiki.git`,
 * beside the project's repository on its storage, created by the first page.
 */
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

async function newProject(body: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("wiki"), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; path_with_namespace: string };
}

const projectItem = (id: number) => getItem<Record<string, unknown>>(`PROJECT#${id}`, "PROJECT");
const wikis = (id: number | string, slug?: string) => `/api/v4/projects/${id}/wikis${slug === undefined ? "" : `/${encodeURIComponent(slug)}`}`;
const newPage = (id: number | string, body: Record<string, unknown>, token = owner.token) => api("POST", wikis(id), { token, body });

/** Every replica of the project's wiki repository, on the storage recorded on the project item. */
async function wikiDirs(projectId: number) {
  const item = await projectItem(projectId);
  return repoPaths(item!.storage as string, "project-wiki", projectId);
}

describe("project wikis", () => {
  it("creates <project>.wiki.git beside the project's repository with the first page", async () => {
    const project = await newProject();
    const item = await projectItem(project.id);
    const [dir] = await wikiDirs(project.id);
    expect(dir).toBe(repoPaths(item!.storage as string, "project", project.id)[0]!.replace(/\.git$/, ".wiki.git"));
    expect(existsSync(dir!)).toBe(false);
    expect((await api("GET", wikis(project.id), { token: owner.token })).body).toEqual([]);
    expect((await api("GET", wikis(project.id, "home"), { token: owner.token })).body).toEqual({ message: "404 Wiki Page Not Found" });

    const created = await newPage(project.id, { title: "title/subtitle", content: "test content" });
    expect(created).toMatchObject({ status: 201, body: { content: "test content", format: "markdown", slug: "title/subtitle", title: "subtitle", encoding: "UTF-8" } });
    expect(await projectItem(project.id)).toMatchObject({ wikiRepository: true, storage: item!.storage, relativePath: item!.relativePath });
    for (const replica of await wikiDirs(project.id)) {
      fsck(replica);
      expect(git(replica, "show", "main:title/subtitle.md")).toBe("test content");
    }
    // The project's own repository is untouched.
    expect(existsSync(`${repoPaths(item!.storage as string, "project", project.id)[0]}/refs/heads/main`)).toBe(false);
  });

  it("reads, lists, renames (python-gitlab's PUT with a new title), reads old versions and deletes", async () => {
    const project = await newProject();
    expect((await newPage(encodeURIComponent(project.path_with_namespace), { title: "title/subtitle", content: "test content" })).status).toBe(201);
    expect((await newPage(project.id, { title: "Setup Guide", content: "setup", format: "rdoc" })).status).toBe(201);
    expect((await api("GET", wikis(project.id), { token: owner.token })).body).toEqual([
      { format: "rdoc", slug: "Setup-Guide", title: "Setup Guide" },
      { format: "markdown", slug: "title/subtitle", title: "subtitle" },
    ]);
    const full = await api("GET", `${wikis(project.id)}?with_content=true`, { token: owner.token });
    expect(full.body.map((p: { content: string; encoding: string }) => [p.content, p.encoding])).toEqual([["setup", "UTF-8"], ["test content", "UTF-8"]]);
    expect((await api("GET", wikis(project.id, "title/subtitle"), { token: owner.token })).body).toEqual({
      content: "test content",
      format: "markdown",
      slug: "title/subtitle",
      title: "subtitle",
      encoding: "UTF-8",
    });
    const [dir] = await wikiDirs(project.id);
    const firstVersion = git(dir!, "rev-parse", "main").trim();

    const renamed = await api("PUT", wikis(project.id, "title/subtitle"), { token: owner.token, body: { content: "update content", title: "subtitle" } });
    expect(renamed).toMatchObject({ status: 200, body: { content: "update content", format: "markdown", slug: "subtitle", title: "subtitle" } });
    expect((await api("GET", wikis(project.id, "title/subtitle"), { token: owner.token })).status).toBe(404);
    expect((await api("GET", wikis(project.id, "subtitle"), { token: owner.token })).body.content).toBe("update content");
    // `version`: the page as it was at that commit.
    const old = await api("GET", `${wikis(project.id, "title/subtitle")}?version=${firstVersion}`, { token: owner.token });
    expect(old).toMatchObject({ status: 200, body: { content: "test content", slug: "title/subtitle" } });
    expect((await api("GET", `${wikis(project.id, "subtitle")}?version=${firstVersion}`, { token: owner.token })).body).toEqual({ message: "404 Wiki Page Not Found" });

    expect((await api("DELETE", wikis(project.id, "subtitle"), { token: owner.token })).status).toBe(204);
    expect((await api("DELETE", wikis(project.id, "subtitle"), { token: owner.token })).body).toEqual({ message: "404 Wiki Page Not Found" });
    fsck(dir!);
    expect(commitSubjects(dir!)).toEqual(["Delete subtitle", "Update subtitle", "Create Setup Guide", "Create subtitle"]);
    expect(git(dir!, "ls-tree", "-r", "--name-only", "main").trim()).toBe("Setup-Guide.rdoc");
  });

  it("validates input and changes nothing on bad input", async () => {
    const project = await newProject();
    expect(await newPage(project.id, { content: "x" })).toMatchObject({ status: 400, body: { error: "title is missing" } });
    expect(await newPage(project.id, { title: "x" })).toMatchObject({ status: 400, body: { error: "content is missing" } });
    expect(await newPage(project.id, { title: "x", content: "x", format: "html" })).toMatchObject({ status: 400, body: { error: "format does not have a valid value" } });
    expect(await newPage(project.id, { title: "a//b", content: "x" })).toMatchObject({ status: 400, body: { error: "title is invalid" } });
    expect((await projectItem(project.id))!.wikiRepository).toBeUndefined();
    expect(existsSync((await wikiDirs(project.id))[0]!)).toBe(false);

    // An undeclared parameter is dropped, not refused (Grape's `declared(params)`).
    const created = await newPage(project.id, { title: "Page", content: "x", colour: "red" });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty("colour");
    expect(await newPage(project.id, { title: "Page", content: "y" })).toMatchObject({ status: 400, body: { message: "Duplicate page: A page with that title already exists" } });
    expect(await api("PUT", wikis(project.id, "Page"), { token: owner.token, body: {} })).toMatchObject({
      status: 400,
      body: { error: "content, title, format are missing, at least one parameter must be provided" },
    });
    expect(await api("PUT", wikis(project.id, "Page"), { token: owner.token, body: { format: "wiki" } })).toMatchObject({ status: 400, body: { error: "format does not have a valid value" } });
    expect(await api("GET", `${wikis(project.id, "Page")}?version=not-a-sha`, { token: owner.token })).toMatchObject({ status: 400, body: { error: "version is invalid" } });
    expect(await api("GET", `${wikis(project.id, "Page")}?render_html=true`, { token: owner.token })).toMatchObject({ status: 200, body: { content: "<p>x</p>", format: "markdown" } });
    expect(await api("GET", `${wikis(project.id, "Page")}?render_html=maybe`, { token: owner.token })).toMatchObject({ status: 400, body: { error: "render_html is invalid" } });
    expect((await api("GET", `${wikis(project.id, "Page")}?render_html=false`, { token: owner.token })).body.content).toBe("x");
    expect(await api("GET", `${wikis(project.id)}?with_content=maybe`, { token: owner.token })).toMatchObject({ status: 400, body: { error: "with_content is invalid" } });
    expect(commitSubjects((await wikiDirs(project.id))[0]!)).toEqual(["Create Page"]);
  });

  it("follows GitLab's permissions: members read, Developers write, the wiki feature decides", async () => {
    const project = await newProject();
    expect((await newPage(project.id, { title: "Home", content: "home" })).status).toBe(201);
    const [guest, reporter, developer, stranger] = await Promise.all([newUser(), newUser(), newUser(), newUser()]);
    const scoped = await newUser({ scopes: ["read_api"] });
    for (const [user, level] of [[guest, 10], [reporter, 20], [developer, 30], [scoped, 30]] as const) {
      expect((await api("POST", `/api/v4/projects/${project.id}/members`, { token: owner.token, body: { user_id: user.id, access_level: level } })).status).toBe(201);
    }
    expect((await api("GET", wikis(project.id, "Home"), { token: guest.token })).body.content).toBe("home");
    for (const user of [guest, reporter]) {
      expect(await newPage(project.id, { title: "Mine", content: "m" }, user.token)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
      expect((await api("PUT", wikis(project.id, "Home"), { token: user.token, body: { content: "m" } })).status).toBe(403);
      expect((await api("DELETE", wikis(project.id, "Home"), { token: user.token })).status).toBe(403);
    }
    expect((await newPage(project.id, { title: "Dev", content: "d" }, developer.token)).status).toBe(201);
    expect(await newPage(project.id, { title: "Scoped", content: "s" }, scoped.token)).toMatchObject({ status: 403, body: { error: "insufficient_scope" } });
    expect((await newPage(project.id, { title: "Anonymous", content: "a" }, "")).status).toBe(401);
    for (const res of [
      await api("GET", wikis(project.id), { token: stranger.token }),
      await api("GET", wikis(project.id, "Home")),
      await newPage(project.id, { title: "Stranger", content: "s" }, stranger.token),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    }
    expect(git((await wikiDirs(project.id))[0]!, "log", "-1", "--format=%an", "main").trim()).toBe(`User ${developer.username}`);

    // A public project's wiki is readable by anyone; `wiki_access_level` narrows or closes it.
    const open = await newProject({ visibility: "public" });
    expect((await newPage(open.id, { title: "Open", content: "o" })).status).toBe(201);
    expect((await api("GET", wikis(open.id, "Open"))).body.content).toBe("o");
    expect((await newPage(open.id, { title: "Stranger", content: "s" }, stranger.token)).status).toBe(403);
    expect((await api("PUT", `/api/v4/projects/${open.id}`, { token: owner.token, body: { wiki_access_level: "private" } })).status).toBe(200);
    expect((await api("GET", wikis(open.id), { token: stranger.token })).status).toBe(403);
    expect((await api("GET", wikis(open.id))).status).toBe(403);
    expect((await api("GET", wikis(open.id), { token: owner.token })).status).toBe(200);
    expect((await api("PUT", `/api/v4/projects/${open.id}`, { token: owner.token, body: { wiki_enabled: false } })).status).toBe(200);
    expect(await api("GET", wikis(open.id, "Open"), { token: owner.token })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await newPage(open.id, { title: "Closed", content: "c" })).status).toBe(403);

    // An archived project's wiki is read-only (GitLab's archived projects refuse `create_wiki`).
    expect((await api("POST", `/api/v4/projects/${project.id}/archive`, { token: owner.token })).status).toBe(201);
    expect((await api("PUT", wikis(project.id, "Home"), { token: owner.token, body: { content: "late" } })).status).toBe(403);
    expect((await api("GET", wikis(project.id, "Home"), { token: guest.token })).body.content).toBe("home");
  });

  it("refuses page writes while the project is read-only (a storage move) and changes nothing", async () => {
    const project = await newProject();
    expect((await newPage(project.id, { title: "Home", content: "home" })).status).toBe(201);
    const fresh = await newProject();
    for (const p of [project, fresh]) await updateItem({ pk: `PROJECT#${p.id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    const refused = await newPage(project.id, { title: "Blocked", content: "b" });
    expect(refused).toMatchObject({ status: 409, body: READ_ONLY });
    expect(refused.headers.get("retry-after")).toBe("30");
    expect((await api("PUT", wikis(project.id, "Home"), { token: owner.token, body: { content: "x" } })).body).toEqual(READ_ONLY);
    expect((await api("DELETE", wikis(project.id, "Home"), { token: owner.token })).body).toEqual(READ_ONLY);
    expect(commitSubjects((await wikiDirs(project.id))[0]!)).toEqual(["Create Home"]);
    expect((await api("GET", wikis(project.id, "Home"), { token: owner.token })).body.content).toBe("home");
    // Nor does a read-only project get its first wiki page (or a wiki repository).
    expect((await newPage(fresh.id, { title: "First", content: "f" })).status).toBe(409);
    expect((await projectItem(fresh.id))!.wikiRepository).toBeUndefined();
    expect(existsSync((await wikiDirs(fresh.id))[0]!)).toBe(false);
  });

  it("removes the wiki repository with its project", async () => {
    const project = await newProject();
    expect((await newPage(project.id, { title: "Home", content: "home" })).status).toBe(201);
    const dirs = await wikiDirs(project.id);
    expect(dirs.every((d) => existsSync(d))).toBe(true);
    expect((await api("DELETE", `/api/v4/projects/${project.id}`, { token: owner.token })).status).toBe(202);
    expect(dirs.some((d) => existsSync(d))).toBe(false);
  });
});
