/** Project snippets (`/projects/:id/snippets`): repositories of their own, reached through their project. */
import { describe, it, expect, beforeAll } from "vitest";
import { existsSync } from "node:fs";
import { api, adminToken, newUser, unique } from "../support/api.js";
import { commitSubjects, fsck, git, repoPaths } from "../support/git.js";
import { getItem, updateItem } from "../../functions/platform/db/table.js";

const READ_ONLY = { message: "The repository is temporarily read-only. Please try again later." };
let owner: Awaited<ReturnType<typeof newUser>>;
let reporter: Awaited<ReturnType<typeof newUser>>;
let guest: Awaited<ReturnType<typeof newUser>>;
let outsider: Awaited<ReturnType<typeof newUser>>;

beforeAll(async () => {
  [owner, reporter, guest, outsider] = await Promise.all([newUser(), newUser(), newUser(), newUser()]);
});

async function newProject(visibility = "private") {
  const project = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("snippets"), visibility } });
  expect(project.status).toBe(201);
  for (const [user, level] of [[reporter, 20], [guest, 10]] as const) {
    expect((await api("POST", `/api/v4/projects/${project.body.id}/members`, { token: owner.token, body: { user_id: user.id, access_level: level } })).status).toBe(201);
  }
  return project.body as { id: number; web_url: string; path_with_namespace: string };
}

async function newSnippet(projectId: number, token: string, body: Record<string, unknown> = {}) {
  const res = await api("POST", `/api/v4/projects/${projectId}/snippets`, { token, body: { title: unique("snip"), file_name: "foo.py", content: "initial content", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const storageOf = async (snippetId: number) => (await getItem<{ storage: string }>(`SNIPPET#${snippetId}`, "SNIPPET"))!.storage;

describe("project snippets", () => {
  it("lets a Reporter create one in a repository of its own, with URLs under the project", async () => {
    const project = await newProject();
    const snippet = await newSnippet(project.id, reporter.token, { description: "d", visibility: "private" });
    expect(snippet).toMatchObject({ project_id: project.id, description: "d", visibility: "private", file_name: "foo.py", author: { id: reporter.id }, files: [{ path: "foo.py" }] });
    expect(snippet.web_url).toBe(`${project.web_url}/-/snippets/${snippet.id}`);
    expect(snippet.raw_url).toBe(`${snippet.web_url}/raw`);
    expect(snippet.files[0].raw_url).toBe(`${snippet.web_url}/raw/main/foo.py`);
    expect(snippet.http_url_to_repo).toMatch(new RegExp(`/${project.path_with_namespace}/snippets/${snippet.id}\\.git$`));
    const dir = repoPaths(await storageOf(snippet.id), "snippet", snippet.id)[0]!;
    fsck(dir);
    expect(git(dir, "show", "main:foo.py")).toBe("initial content");
    // Listed under its project, not among its author's personal snippets.
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets`, { token: guest.token })).body.map((s: { id: number }) => s.id)).toEqual([snippet.id]);
    expect((await api("GET", "/api/v4/snippets", { token: reporter.token })).body.map((s: { id: number }) => s.id)).not.toContain(snippet.id);
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets/${snippet.id}/raw`, { token: guest.token })).text).toBe("initial content");
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets/${snippet.id}/files/main/foo.py/raw`, { token: guest.token })).text).toBe("initial content");
    const detail = await api("GET", `/api/v4/projects/${project.id}/snippets/${snippet.id}/user_agent_detail`, { token: adminToken() });
    expect(detail).toMatchObject({ status: 200, body: { ip_address: "127.0.0.1", akismet_submitted: false } });
  });

  it("follows GitLab's permissions: Reporter+ creates, author or Maintainer+ changes, members see private ones", async () => {
    const project = await newProject();
    expect((await api("POST", `/api/v4/projects/${project.id}/snippets`, { token: guest.token, body: { title: "t", file_name: "a", content: "a" } })).status).toBe(403);
    expect((await api("POST", `/api/v4/projects/${project.id}/snippets`, { token: outsider.token, body: { title: "t", file_name: "a", content: "a" } })).status).toBe(404);
    const snippet = await newSnippet(project.id, reporter.token);
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: outsider.token })).status).toBe(404);
    expect((await api("PUT", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: guest.token, body: { title: "x" } })).status).toBe(403);
    expect((await api("PUT", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: owner.token, body: { title: "by the owner" } })).body.title).toBe("by the owner");
    expect((await api("DELETE", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: guest.token })).status).toBe(403);

    const pub = await newProject("public");
    const open = await newSnippet(pub.id, owner.token, { visibility: "public" });
    const members = await newSnippet(pub.id, owner.token, { visibility: "private" });
    expect((await api("GET", `/api/v4/projects/${pub.id}/snippets/${open.id}`)).status).toBe(200);
    expect((await api("GET", `/api/v4/projects/${pub.id}/snippets/${members.id}`)).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${pub.id}/snippets`)).body.map((s: { id: number }) => s.id)).toEqual([open.id]);
    expect((await api("GET", `/api/v4/projects/${pub.id}/snippets`, { token: guest.token })).body.map((s: { id: number }) => s.id)).toEqual([members.id, open.id]);
  });

  it("answers 403 while the project's snippets are off (snippets_enabled, snippets_access_level)", async () => {
    const project = await newProject();
    const snippet = await newSnippet(project.id, owner.token);
    const off = await api("PUT", `/api/v4/projects/${project.id}`, { token: owner.token, body: { snippets_enabled: false } });
    expect(off.body).toMatchObject({ snippets_enabled: false, snippets_access_level: "disabled" });
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets`, { token: owner.token })).status).toBe(403);
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: owner.token })).status).toBe(403);
    const on = await api("PUT", `/api/v4/projects/${project.id}`, { token: owner.token, body: { snippets_enabled: "true" } });
    expect(on.body).toMatchObject({ snippets_enabled: true, snippets_access_level: "enabled" });
    // A level in the same request wins over the old boolean.
    const both = await api("PUT", `/api/v4/projects/${project.id}`, { token: owner.token, body: { snippets_enabled: true, snippets_access_level: "private" } });
    expect(both.body.snippets_access_level).toBe("private");
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: guest.token })).status).toBe(200);
    expect((await api("PUT", `/api/v4/projects/${project.id}`, { token: owner.token, body: { snippets_enabled: "maybe" } })).status).toBe(400);
  });

  it("renames and rewrites the first file with the single-file form, or applies file actions, in one commit each", async () => {
    const project = await newProject();
    const snippet = await newSnippet(project.id, reporter.token);
    const renamed = await api("PUT", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: reporter.token, body: { file_name: "bar.py" } });
    expect(renamed.body).toMatchObject({ file_name: "bar.py", files: [{ path: "bar.py" }] });
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets/${snippet.id}/raw`, { token: reporter.token })).text).toBe("initial content");
    await api("PUT", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: reporter.token, body: { content: "new content" } });
    await api("PUT", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: reporter.token, body: { files: [{ action: "create", file_path: "b.txt", content: "b" }] } });
    const dir = repoPaths(await storageOf(snippet.id), "snippet", snippet.id)[0]!;
    expect(git(dir, "show", "main:bar.py")).toBe("new content");
    expect(commitSubjects(dir)).toEqual(["Update snippet", "Update snippet", "Update snippet", "Initial commit"]);
    expect((await api("PUT", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: reporter.token, body: {} })).body).toEqual({
      error: "title, description, visibility, files, file_name, content are missing, at least one parameter must be provided",
    });
    const mixed = await api("PUT", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: reporter.token, body: { content: "x", files: [{ action: "delete", file_path: "b.txt" }] } });
    expect(mixed).toMatchObject({ status: 400, body: { error: "files, content are mutually exclusive" } });
  });

  it("refuses bad input in GitLab's format", async () => {
    const project = await newProject();
    expect(await api("POST", `/api/v4/projects/${project.id}/snippets`, { token: owner.token, body: { file_name: "a", content: "a" } })).toMatchObject({ status: 400, body: { error: "title is missing" } });
    expect(await api("POST", `/api/v4/projects/${project.id}/snippets`, { token: owner.token, body: { title: "t" } })).toMatchObject({
      status: 400,
      body: { error: "content, files are missing, exactly one parameter must be provided" },
    });
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets/abc`, { token: owner.token })).status).toBe(400);
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets`)).status).toBe(404);
    expect((await api("POST", `/api/v4/projects/${project.id}/snippets`, { body: { title: "t", file_name: "a", content: "a" } })).status).toBe(401);
  });

  it("keeps personal and project snippets apart, and each project's to itself", async () => {
    const [a, b] = await Promise.all([newProject(), newProject()]);
    const inA = await newSnippet(a.id, owner.token);
    const personal = await api("POST", "/api/v4/snippets", { token: owner.token, body: { title: "mine", file_name: "m", content: "m" } });
    expect((await api("GET", `/api/v4/projects/${b.id}/snippets/${inA.id}`, { token: owner.token })).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${a.id}/snippets/${personal.body.id}`, { token: owner.token })).status).toBe(404);
    expect((await api("GET", `/api/v4/snippets/${inA.id}`, { token: owner.token })).status).toBe(404);
    expect((await api("DELETE", `/api/v4/snippets/${inA.id}`, { token: adminToken() })).status).toBe(404);
  });

  it("refuses changes while its repository is read-only (a storage move), and changes nothing", async () => {
    const project = await newProject();
    const snippet = await newSnippet(project.id, owner.token);
    await updateItem({ pk: `SNIPPET#${snippet.id}`, sk: "SNIPPET", update: "SET readOnly = :t", values: { ":t": true } });
    const put = await api("PUT", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: owner.token, body: { content: "blocked" } });
    expect(put).toMatchObject({ status: 409, body: READ_ONLY });
    expect((await api("DELETE", `/api/v4/projects/${project.id}/snippets/${snippet.id}`, { token: owner.token })).body).toEqual(READ_ONLY);
    // Deleting the project would leave the moving copy behind: refused too, project and snippet kept.
    expect((await api("DELETE", `/api/v4/projects/${project.id}`, { token: owner.token })).status).toBe(409);
    expect((await api("GET", `/api/v4/projects/${project.id}/snippets/${snippet.id}/raw`, { token: owner.token })).text).toBe("initial content");
    const dir = repoPaths(await storageOf(snippet.id), "snippet", snippet.id)[0]!;
    expect(commitSubjects(dir)).toEqual(["Initial commit"]);
  });

  it("goes with its project: deleting the project deletes its snippets and their repositories", async () => {
    const project = await newProject();
    const snippet = await newSnippet(project.id, owner.token);
    const dirs = repoPaths(await storageOf(snippet.id), "snippet", snippet.id);
    expect((await api("DELETE", `/api/v4/projects/${project.id}`, { token: owner.token })).status).toBe(202);
    expect(await getItem(`SNIPPET#${snippet.id}`, "SNIPPET")).toBeUndefined();
    for (const dir of dirs) expect(existsSync(dir)).toBe(false);
  });
});
