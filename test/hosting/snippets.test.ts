import { describe, it, expect, beforeAll } from "vitest";
import { existsSync } from "node:fs";
import { api, adminToken, newUser, unique } from "../support/api.js";
import { commitSubjects, fsck, git, repoPaths } from "../support/git.js";
import { GSI2, getItem, queryAll, updateItem } from "../../functions/platform/db/table.js";
import { storageIndexPk } from "../../functions/hosting/domain/keys.js";

const READ_ONLY = { message: "The repository is temporarily read-only. Please try again later." };
let author: Awaited<ReturnType<typeof newUser>>;
let other: Awaited<ReturnType<typeof newUser>>;

beforeAll(async () => {
  [author, other] = await Promise.all([newUser(), newUser()]);
});

async function newSnippet(token: string, body: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/v4/snippets", {
    token,
    body: { title: unique("snip"), files: [{ file_path: "hello.rb", content: "puts 'hi'\n" }, { file_path: "notes.md", content: "# notes\n" }], ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** The snippet's storage as an administrator sees it, and its primary repository directory. */
async function repoOf(id: number) {
  const res = await api("GET", `/api/v4/snippets/${id}`, { token: adminToken() });
  const storage: string = res.body.repository_storage;
  return { storage, dir: repoPaths(storage, "snippet", id)[0]! };
}

describe("personal snippets", () => {
  it("creates a snippet whose files are committed to main of its own repository", async () => {
    const snippet = await newSnippet(author.token, { description: "two files" });
    expect(snippet).toMatchObject({
      description: "two files",
      visibility: "private",
      project_id: null,
      author: { id: author.id, username: author.username },
      file_name: "hello.rb",
      files: [{ path: "hello.rb" }, { path: "notes.md" }],
    });
    expect(snippet.web_url).toMatch(new RegExp(`/-/snippets/${snippet.id}$`));
    expect(snippet.raw_url).toBe(`${snippet.web_url}/raw`);
    expect(snippet.http_url_to_repo).toMatch(new RegExp(`/snippets/${snippet.id}\\.git$`));
    expect(snippet.files[1].raw_url).toBe(`${snippet.web_url}/raw/main/notes.md`);
    expect(snippet.repository_storage).toBeUndefined();
    const { storage, dir } = await repoOf(snippet.id);
    expect(storage).toMatch(/^(default|secondary|cluster)$/);
    fsck(dir);
    expect(commitSubjects(dir)).toEqual(["Initial commit"]);
    expect(git(dir, "show", "main:hello.rb")).toBe("puts 'hi'\n");
    expect(git(dir, "log", "-1", "--format=%an <%ae>", "main").trim()).toBe(`User ${author.username} <${author.username}@example.com>`);
    // The storage-move feature finds snippets per storage through gsi2.
    const onStorage = await queryAll<{ id: number }>({ index: GSI2, pk: storageIndexPk("snippet", storage) });
    expect(onStorage.some((s) => s.id === snippet.id)).toBe(true);
    const item = await getItem<Record<string, unknown>>(`SNIPPET#${snippet.id}`, "SNIPPET");
    expect(item).toMatchObject({ storage, readOnly: false, gsi1pk: `USER#${author.id}#SNIPPETS` });
  });

  it("serves raw files, the first file and the caller's own list with pagination", async () => {
    const first = await newSnippet(author.token);
    const second = await newSnippet(author.token, { file_name: "legacy.txt", content: "legacy\n", files: undefined });
    expect(second).toMatchObject({ description: null, file_name: "legacy.txt", files: [{ path: "legacy.txt" }] });
    const raw = await api("GET", `/api/v4/snippets/${second.id}/raw`, { token: author.token });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(raw.text).toBe("legacy\n");
    const file = await api("GET", `/api/v4/snippets/${first.id}/files/main/${encodeURIComponent("notes.md")}/raw`, { token: author.token });
    expect(file.text).toBe("# notes\n");
    const missing = await api("GET", `/api/v4/snippets/${first.id}/files/main/nope.txt/raw`, { token: author.token });
    expect(missing).toMatchObject({ status: 404, body: { message: "404 File Not Found" } });
    const page1 = await api("GET", "/api/v4/snippets?per_page=1", { token: author.token });
    expect(page1.body.map((s: { id: number }) => s.id)).toEqual([second.id]);
    expect(page1.headers.get("x-next-page")).toBe("2");
    const all = await api("GET", "/api/v4/snippets?per_page=100", { token: author.token });
    expect(all.body.map((s: { id: number }) => s.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    const theirs = await api("GET", "/api/v4/snippets?per_page=100", { token: other.token });
    expect(theirs.body.some((s: { id: number }) => s.id === first.id)).toBe(false);
  });

  it("applies file actions as one commit and refuses invalid ones without changing history", async () => {
    const snippet = await newSnippet(author.token);
    const { dir } = await repoOf(snippet.id);
    const res = await api("PUT", `/api/v4/snippets/${snippet.id}`, {
      token: author.token,
      body: {
        title: "renamed",
        visibility: "internal",
        files: [
          { action: "update", file_path: "hello.rb", content: "puts 'bye'\n" },
          { action: "move", previous_path: "notes.md", file_path: "docs.md" },
          { action: "create", file_path: "new.txt", content: "new\n" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "renamed", visibility: "internal", files: [{ path: "docs.md" }, { path: "hello.rb" }, { path: "new.txt" }] });
    fsck(dir);
    expect(commitSubjects(dir)).toEqual(["Update snippet", "Initial commit"]);
    expect(git(dir, "show", "main:hello.rb")).toBe("puts 'bye'\n");
    expect(git(dir, "show", "main:docs.md")).toBe("# notes\n");
    const dup = await api("PUT", `/api/v4/snippets/${snippet.id}`, { token: author.token, body: { files: [{ action: "create", file_path: "new.txt", content: "x" }] } });
    expect(dup).toMatchObject({ status: 400, body: { message: "A file with this name already exists" } });
    const noContent = await api("PUT", `/api/v4/snippets/${snippet.id}`, { token: author.token, body: { files: [{ action: "update", file_path: "new.txt" }] } });
    expect(noContent).toMatchObject({ status: 400, body: { error: "files.0.content is missing" } });
    const emptied = await api("PUT", `/api/v4/snippets/${snippet.id}`, {
      token: author.token,
      body: { files: ["docs.md", "hello.rb", "new.txt"].map((file_path) => ({ action: "delete", file_path })) },
    });
    expect(emptied.status).toBe(400);
    const nothing = await api("PUT", `/api/v4/snippets/${snippet.id}`, { token: author.token, body: {} });
    expect(nothing).toMatchObject({ status: 400, body: { error: expect.stringContaining("at least one parameter must be provided") } });
    expect(commitSubjects(dir)).toEqual(["Update snippet", "Initial commit"]);
    expect((await api("GET", `/api/v4/snippets/${snippet.id}`, { token: author.token })).body.title).toBe("renamed");
  });

  it("validates input the way GitLab's Grape API does", async () => {
    const noTitle = await api("POST", "/api/v4/snippets", { token: author.token, body: { files: [{ file_path: "a", content: "a" }] } });
    expect(noTitle).toMatchObject({ status: 400, body: { error: "title is missing" } });
    // Undeclared parameters, at the top and inside a file, are dropped (Grape's `declared(params)`).
    const unknown = await api("POST", "/api/v4/snippets", { token: author.token, body: { title: "t", files: [{ file_path: "a", content: "a", colour: "blue" }], colour: "red" } });
    expect(unknown.status).toBe(201);
    expect(unknown.body).not.toHaveProperty("colour");
    expect(unknown.body.files).toEqual([expect.not.objectContaining({ colour: expect.anything() })]);
    const wrongType = await api("POST", "/api/v4/snippets", { token: author.token, body: { title: 5, files: [{ file_path: "a", content: "a" }] } });
    expect(wrongType).toMatchObject({ status: 400, body: { error: "title is invalid" } });
    const badVisibility = await api("POST", "/api/v4/snippets", { token: author.token, body: { title: "t", visibility: "secret", files: [{ file_path: "a", content: "a" }] } });
    expect(badVisibility).toMatchObject({ status: 400, body: { error: "visibility does not have a valid value" } });
    const noFiles = await api("POST", "/api/v4/snippets", { token: author.token, body: { title: "t" } });
    expect(noFiles).toMatchObject({ status: 400, body: { error: "content, files are missing, exactly one parameter must be provided" } });
    const both = await api("POST", "/api/v4/snippets", { token: author.token, body: { title: "t", file_name: "a", content: "a", files: [{ file_path: "b", content: "b" }] } });
    expect(both).toMatchObject({ status: 400, body: { error: "content, files are mutually exclusive" } });
    const before = (await api("GET", "/api/v4/snippets?per_page=100", { token: author.token })).body.length;
    const traversal = await api("POST", "/api/v4/snippets", { token: author.token, body: { title: "t", files: [{ file_path: "../evil", content: "x" }] } });
    expect(traversal).toMatchObject({ status: 400, body: { message: "Path cannot include directory traversal" } });
    // The refused snippet was rolled back, not left behind empty.
    expect((await api("GET", "/api/v4/snippets?per_page=100", { token: author.token })).body.length).toBe(before);
  });

  it("applies visibility and authorship rules", async () => {
    expect((await api("GET", "/api/v4/snippets")).status).toBe(401);
    expect((await api("POST", "/api/v4/snippets", { body: { title: "t", files: [{ file_path: "a", content: "a" }] } })).status).toBe(401);
    const reader = await newUser({ scopes: ["read_api"] });
    const scoped = await api("POST", "/api/v4/snippets", { token: reader.token, body: { title: "t", files: [{ file_path: "a", content: "a" }] } });
    expect(scoped).toMatchObject({ status: 403, body: { error: "insufficient_scope" } });
    const priv = await newSnippet(author.token);
    for (const [method, path] of [["GET", ""], ["GET", "/raw"], ["PUT", ""], ["DELETE", ""]] as const) {
      const res = await api(method, `/api/v4/snippets/${priv.id}${path}`, { token: other.token, body: method === "PUT" ? { title: "x" } : undefined });
      expect(res).toMatchObject({ status: 404, body: { message: "404 Snippet Not Found" } });
    }
    expect((await api("GET", `/api/v4/snippets/${priv.id}`)).status).toBe(404);
    expect((await api("GET", `/api/v4/snippets/${priv.id}`, { token: adminToken() })).status).toBe(200);
    const internal = await newSnippet(author.token, { visibility: "internal" });
    expect((await api("GET", `/api/v4/snippets/${internal.id}`, { token: other.token })).status).toBe(200);
    expect((await api("GET", `/api/v4/snippets/${internal.id}`)).status).toBe(404);
    const pub = await newSnippet(author.token, { visibility: "public" });
    expect((await api("GET", `/api/v4/snippets/${pub.id}`)).body.author.id).toBe(author.id);
    expect((await api("GET", `/api/v4/snippets/${pub.id}/raw`)).text).toBe("puts 'hi'\n");
    expect((await api("GET", `/api/v4/snippets/${pub.id}/files/main/hello.rb/raw`)).status).toBe(401);
    expect((await api("PUT", `/api/v4/snippets/${pub.id}`, { token: other.token, body: { title: "mine" } })).status).toBe(403);
    expect((await api("DELETE", `/api/v4/snippets/${pub.id}`, { token: other.token })).status).toBe(403);
    expect((await api("GET", `/api/v4/snippets/${pub.id}`, { token: reader.token })).status).toBe(200);
    const byAdmin = await api("PUT", `/api/v4/snippets/${pub.id}`, { token: adminToken(), body: { description: "moderated" } });
    expect(byAdmin).toMatchObject({ status: 200, body: { description: "moderated", author: { id: author.id } } });
  });

  it("refuses every change while the repository is read-only and changes nothing", async () => {
    const snippet = await newSnippet(author.token);
    const { dir } = await repoOf(snippet.id);
    await updateItem({ pk: `SNIPPET#${snippet.id}`, sk: "SNIPPET", update: "SET readOnly = :t", values: { ":t": true } });
    const put = await api("PUT", `/api/v4/snippets/${snippet.id}`, {
      token: author.token,
      body: { title: "blocked", files: [{ action: "create", file_path: "x.txt", content: "x" }] },
    });
    expect(put.status).toBe(409);
    expect(put.body).toEqual(READ_ONLY);
    expect(put.headers.get("retry-after")).toBe("30");
    expect((await api("PUT", `/api/v4/snippets/${snippet.id}`, { token: author.token, body: { title: "blocked" } })).status).toBe(409);
    expect((await api("DELETE", `/api/v4/snippets/${snippet.id}`, { token: author.token })).body).toEqual(READ_ONLY);
    expect(commitSubjects(dir)).toEqual(["Initial commit"]);
    const still = await api("GET", `/api/v4/snippets/${snippet.id}`, { token: author.token });
    expect(still.body).toMatchObject({ title: snippet.title, files: [{ path: "hello.rb" }, { path: "notes.md" }] });
  });

  it("deletes the snippet together with its repository", async () => {
    const snippet = await newSnippet(author.token);
    const { storage, dir } = await repoOf(snippet.id);
    const res = await api("DELETE", `/api/v4/snippets/${snippet.id}`, { token: author.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await api("GET", `/api/v4/snippets/${snippet.id}`, { token: author.token })).status).toBe(404);
    for (const replica of repoPaths(storage, "snippet", snippet.id)) expect(existsSync(replica)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });
});

describe("GET /snippets/:id/user_agent_detail", () => {
  it("shows administrators the user agent and address a snippet was created from", async () => {
    const created = await api("POST", "/api/v4/snippets", {
      token: author.token,
      headers: { "User-Agent": "python-gitlab/3.12.0", "X-Forwarded-For": "203.0.113.9" },
      body: { title: unique("ua"), file_name: "a.txt", content: "a" },
    });
    expect(created.status).toBe(201);
    const detail = await api("GET", `/api/v4/snippets/${created.body.id}/user_agent_detail`, { token: adminToken() });
    expect(detail.status).toBe(200);
    // The address is the connection's peer: a forwarded-for header the client wrote is not believed.
    expect(detail.body).toEqual({ user_agent: "python-gitlab/3.12.0", ip_address: "127.0.0.1", akismet_submitted: false });
  });

  it("is for administrators only, and answers GitLab's errors", async () => {
    const snippet = await newSnippet(author.token);
    expect(await api("GET", `/api/v4/snippets/${snippet.id}/user_agent_detail`, { token: author.token })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await api("GET", `/api/v4/snippets/${snippet.id}/user_agent_detail`)).status).toBe(401);
    expect(await api("GET", "/api/v4/snippets/999999999/user_agent_detail", { token: adminToken() })).toMatchObject({ status: 404, body: { message: "404 Snippet Not Found" } });
    expect((await api("GET", "/api/v4/snippets/abc/user_agent_detail", { token: adminToken() })).status).toBe(400);
  });

  it("answers 404 for a snippet created before the detail was recorded", async () => {
    const snippet = await newSnippet(author.token);
    await updateItem({ pk: `SNIPPET#${snippet.id}`, sk: "SNIPPET", update: "REMOVE createdFrom" });
    expect(await api("GET", `/api/v4/snippets/${snippet.id}/user_agent_detail`, { token: adminToken() })).toMatchObject({ status: 404, body: { message: "404 UserAgentDetail Not Found" } });
  });
});
