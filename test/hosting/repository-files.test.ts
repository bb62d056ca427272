/**
 * GitLab's repository files API (`/projects/:id/repository/files/:file_path`): what it answers is
 * checked against the repository with the git CLI; writes go through the one write path.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Gitlab } from "@gitbeaker/rest";
import { api, baseUrl, newUser, unique } from "../support/api.js";
import { commitSubjects, fsck, git, repoPaths } from "../support/git.js";
import { updateItem } from "../../functions/platform/db/table.js";

let owner: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  owner = await newUser();
});

async function newProject() {
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("files"), initialize_with_readme: true } });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, dir: repoPaths("default", "project", res.body.id)[0]! };
}

const files = (id: number, path: string) => `/api/v4/projects/${id}/repository/files/${encodeURIComponent(path).replace(/\./g, "%2E")}`;
const sha256 = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");
const lastCommitOf = (dir: string, path: string, ref = "main") => git(dir, "log", "-1", "--format=%H", ref, "--", path).trim();

describe("GET and HEAD /projects/:id/repository/files/:file_path", () => {
  it("answers the file's metadata and base64 content as git sees them, and the same as X-Gitlab-* headers", async () => {
    const { id, dir } = await newProject();
    const write = (file_path: string, content: string, message: string) =>
      api("POST", `/api/v4/projects/${id}/repository/commits`, {
        token: owner.token,
        body: { branch: "main", commit_message: message, actions: [{ action: "create", file_path, content }] },
      });
    expect((await write("app/models/key.rb", "class Key\nend\n", "Add key")).status).toBe(201);
    expect((await write("other.txt", "x", "Add other")).status).toBe(201);

    const res = await api("GET", `${files(id, "app/models/key.rb")}?ref=main`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const expected = {
      file_name: "key.rb",
      file_path: "app/models/key.rb",
      size: 14,
      encoding: "base64",
      content: Buffer.from("class Key\nend\n").toString("base64"),
      content_sha256: sha256("class Key\nend\n"),
      ref: "main",
      blob_id: git(dir, "rev-parse", "main:app/models/key.rb").trim(),
      commit_id: git(dir, "rev-parse", "main").trim(),
      last_commit_id: lastCommitOf(dir, "app/models/key.rb"),
      execute_filemode: false,
    };
    expect(res.body).toEqual(expected);
    expect(Object.keys(res.body)).toEqual(Object.keys(expected));
    // The last commit that changed the file is older than the branch head.
    expect(res.body.last_commit_id).not.toBe(res.body.commit_id);

    const head = await api("HEAD", `${files(id, "app/models/key.rb")}?ref=main`, { token: owner.token });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(Object.fromEntries([...head.headers].filter(([k]) => k.startsWith("x-gitlab-")))).toEqual({
      "x-gitlab-blob-id": expected.blob_id,
      "x-gitlab-commit-id": expected.commit_id,
      "x-gitlab-content-sha256": expected.content_sha256,
      "x-gitlab-encoding": "base64",
      "x-gitlab-execute-filemode": "false",
      "x-gitlab-file-name": "key.rb",
      "x-gitlab-file-path": "app/models/key.rb",
      "x-gitlab-last-commit-id": expected.last_commit_id,
      "x-gitlab-ref": "main",
      "x-gitlab-size": "14",
    });

    // `HEAD` as the ref is the default branch; a commit id works too.
    expect((await api("GET", `${files(id, "app/models/key.rb")}?ref=HEAD`, { token: owner.token })).body).toMatchObject({ ref: "HEAD", commit_id: expected.commit_id });
    const first = git(dir, "rev-list", "--max-parents=0", "main").trim();
    expect((await api("GET", `${files(id, "README.md")}?ref=${first}`, { token: owner.token })).body).toMatchObject({ commit_id: first, last_commit_id: first });
  });

  it("answers GitLab's errors for a missing ref, file or commit and for unsafe paths", async () => {
    const { id } = await newProject();
    const get = (path: string) => api("GET", path, { token: owner.token });
    expect(await get(files(id, "README.md"))).toMatchObject({ status: 400, body: { error: "ref is missing" } });
    expect(await get(`${files(id, "nope.rb")}?ref=main`)).toMatchObject({ status: 404, body: { message: "404 File Not Found" } });
    // A folder is not a file.
    expect((await get(`/api/v4/projects/${id}/repository/files/app?ref=main`)).status).toBe(404);
    expect(await get(`${files(id, "README.md")}?ref=no-such-branch`)).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    for (const unsafe of ["%2e%2e%2f", "%2Fetc%2Fpasswd%2Erb", "a%2F..%2F..%2Fsecret"]) {
      expect(await get(`/api/v4/projects/${id}/repository/files/${unsafe}?ref=main`)).toMatchObject({
        status: 400,
        body: { error: "file_path should be a valid file path" },
      });
    }
    const stranger = await newUser();
    expect((await api("GET", `${files(id, "README.md")}?ref=main`, { token: stranger.token })).status).toBe(404);
    expect((await api("HEAD", `${files(id, "README.md")}?ref=main`)).status).toBe(404);
  });

  it("sends a file name beyond printable ASCII in the headers percent-encoded, and a plain one as it is", async () => {
    const { id } = await newProject();
    const name = "docs/résumé-日本 100%.md";
    expect((await api("POST", files(id, name), { token: owner.token, body: { branch: "main", content: "hi", commit_message: "utf-8" } })).status).toBe(201);
    const head = await api("HEAD", `${files(id, name)}?ref=main`, { token: owner.token });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-gitlab-file-name")).toBe("r%C3%A9sum%C3%A9-%E6%97%A5%E6%9C%AC 100%25.md");
    expect(decodeURIComponent(head.headers.get("x-gitlab-file-path")!)).toBe(name);
    const plain = await api("HEAD", `${files(id, "README.md")}?ref=main`, { token: owner.token });
    expect([plain.headers.get("x-gitlab-file-name"), plain.headers.get("x-gitlab-file-path")]).toEqual(["README.md", "README.md"]);
  });
});

describe("GET and HEAD /projects/:id/repository/files/:file_path/raw", () => {
  it("answers the bytes with the file's X-Gitlab-* headers, and HEAD the headers alone", async () => {
    const { id, dir } = await newProject();
    const content = "binary\u0000ish\n";
    const write = await api("POST", files(id, "bin/tool.sh"), { token: owner.token, body: { branch: "main", content, commit_message: "tool", execute_filemode: true } });
    expect(write.status).toBe(201);
    const expected = {
      "x-gitlab-blob-id": git(dir, "rev-parse", "main:bin/tool.sh").trim(),
      "x-gitlab-commit-id": git(dir, "rev-parse", "main").trim(),
      "x-gitlab-content-sha256": sha256(content),
      "x-gitlab-encoding": "base64",
      "x-gitlab-execute-filemode": "true",
      "x-gitlab-file-name": "tool.sh",
      "x-gitlab-file-path": "bin/tool.sh",
      "x-gitlab-last-commit-id": lastCommitOf(dir, "bin/tool.sh"),
      "x-gitlab-ref": "main",
      "x-gitlab-size": String(content.length),
    };
    const gitlabHeaders = (headers: Headers) => Object.fromEntries([...headers].filter(([k]) => k.startsWith("x-gitlab-")));
    const raw = await api("GET", `${files(id, "bin/tool.sh")}/raw?ref=main`, { token: owner.token });
    expect(raw).toMatchObject({ status: 200, text: content });
    expect(gitlabHeaders(raw.headers)).toEqual(expected);
    const head = await api("HEAD", `${files(id, "bin/tool.sh")}/raw?ref=main`, { token: owner.token });
    expect(head).toMatchObject({ status: 200, text: "" });
    expect(gitlabHeaders(head.headers)).toEqual(expected);
    // Without `ref`, the default branch.
    expect(gitlabHeaders((await api("HEAD", `${files(id, "bin/tool.sh")}/raw`, { token: owner.token })).headers)).toEqual(expected);

    expect((await api("HEAD", `${files(id, "nope")}/raw?ref=main`, { token: owner.token })).status).toBe(404);
    expect(await api("GET", `${files(id, "nope")}/raw?ref=main`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 File Not Found" } });
    expect(await api("GET", `${files(id, "README.md")}/raw?ref=nope`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    expect(await api("GET", `/api/v4/projects/${id}/repository/files/a%2F..%2Fb/raw`, { token: owner.token })).toMatchObject({ status: 400, body: { error: "file_path should be a valid file path" } });
    expect((await api("HEAD", `${files(id, "README.md")}/raw`, { token: (await newUser()).token })).status).toBe(404);
    expect((await api("HEAD", `${files(id, "README.md")}/raw`)).status).toBe(401);
  });
});

describe("GET and HEAD /projects/:id/repository/files/:file_path/blame", () => {
  it("attributes each line to the commit that introduced it, as git blame does, whole or in a range", async () => {
    const { id, dir } = await newProject();
    const put = (method: string, content: string, message: string) =>
      api(method, files(id, "src/a.txt"), { token: owner.token, body: { branch: "main", content, commit_message: message } });
    expect((await put("POST", "l1\nl2\nl3\n", "first")).status).toBe(201);
    expect((await put("PUT", "l1\nnew\nl3\nl4\n", "second")).status).toBe(200);
    // A commit that leaves the file alone changes nothing in its blame.
    expect((await api("POST", files(id, "other.txt"), { token: owner.token, body: { branch: "main", content: "x", commit_message: "third" } })).status).toBe(201);

    const res = await api("GET", `${files(id, "src/a.txt")}/blame?ref=main`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gitlab-file-name")).toBe("a.txt");
    const byGit = git(dir, "blame", "-l", "-s", "main", "--", "src/a.txt").trim().split("\n").map((l) => l.slice(0, 40));
    const ours = res.body.flatMap((r: { commit: { id: string }; lines: string[] }) => r.lines.map(() => r.commit.id));
    expect(ours).toEqual(byGit);
    expect(res.body.map((r: { commit: { message: string }; lines: string[] }) => [r.commit.message, r.lines])).toEqual([
      ["first", ["l1"]],
      ["second", ["new"]],
      ["first", ["l3"]],
      ["second", ["l4"]],
    ]);
    const [first] = res.body;
    expect(Object.keys(first.commit)).toEqual(["id", "parent_ids", "message", "authored_date", "author_name", "author_email", "committed_date", "committer_name", "committer_email"]);

    const part = await api("GET", `${files(id, "src/a.txt")}/blame?ref=main&range[start]=2&range[end]=3`, { token: owner.token });
    expect(part.body.map((r: { commit: { message: string }; lines: string[] }) => [r.commit.message, r.lines])).toEqual([
      ["second", ["new"]],
      ["first", ["l3"]],
    ]);
    expect(await api("GET", `${files(id, "src/a.txt")}/blame?ref=main&range[start]=3&range[end]=2`, { token: owner.token })).toMatchObject({
      status: 400,
      body: { message: "range[start] must be less than or equal to range[end]" },
    });
    expect(await api("GET", `${files(id, "src/a.txt")}/blame?ref=main&range[start]=1`, { token: owner.token })).toMatchObject({ status: 400, body: { error: "range[end] is missing" } });
    expect(await api("GET", `${files(id, "nope.txt")}/blame?ref=main`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 File Not Found" } });
    const head = await api("HEAD", `${files(id, "src/a.txt")}/blame?ref=main`, { token: owner.token });
    expect(head).toMatchObject({ status: 200, text: "" });
    expect(head.headers.get("x-gitlab-last-commit-id")).toBe(lastCommitOf(dir, "src/a.txt"));
  });
});

describe("POST, PUT and DELETE /projects/:id/repository/files/:file_path", () => {
  it("creates, updates and deletes one file per commit, with GitLab's answers and errors", async () => {
    const { id, dir } = await newProject();
    const send = (method: string, path: string, body: Record<string, unknown>) => api(method, files(id, path), { token: owner.token, body });

    const created = await send("POST", "app/project.rb", {
      branch: "main",
      author_email: "author@example.com",
      author_name: "Firstname Lastname",
      content: "some content",
      commit_message: "create a new file",
    });
    expect(created).toMatchObject({ status: 201, body: { file_path: "app/project.rb", branch: "main" } });
    expect(git(dir, "log", "-1", "--format=%s|%an|%ae", "main").trim()).toBe("create a new file|Firstname Lastname|author@example.com");
    expect(git(dir, "show", "main:app/project.rb")).toBe("some content");

    expect(await send("POST", "app/project.rb", { branch: "main", content: "again", commit_message: "dup" })).toMatchObject({
      status: 400,
      body: { message: "A file with this name already exists" },
    });

    const seen = lastCommitOf(dir, "app/project.rb");
    const updated = await send("PUT", "app/project.rb", { branch: "main", content: "new content", commit_message: "update file", last_commit_id: seen });
    expect(updated).toMatchObject({ status: 200, body: { file_path: "app/project.rb", branch: "main" } });
    expect(git(dir, "show", "main:app/project.rb")).toBe("new content");
    // The same last_commit_id is stale now.
    expect(await send("PUT", "app/project.rb", { branch: "main", content: "lost", commit_message: "stale", last_commit_id: seen })).toMatchObject({
      status: 400,
      body: { message: "You are attempting to update a file that has changed since you started editing it." },
    });
    // The commits API makes the same check, naming the file.
    const viaCommits = await api("POST", `/api/v4/projects/${id}/repository/commits`, {
      token: owner.token,
      body: { branch: "main", commit_message: "stale", actions: [{ action: "update", file_path: "app/project.rb", content: "lost", last_commit_id: seen }] },
    });
    expect(viaCommits).toMatchObject({ status: 400, body: { message: "The file has changed since you started editing it: app/project.rb" } });
    expect(await send("PUT", "missing.rb", { branch: "main", content: "x", commit_message: "m" })).toMatchObject({
      status: 400,
      body: { message: "A file with this name doesn't exist" },
    });
    expect(await send("PUT", "app/project.rb", { branch: "nope", content: "x", commit_message: "m" })).toMatchObject({
      status: 400,
      body: { message: "You can only create or edit files when you are on a branch" },
    });
    expect(await send("DELETE", "app/project.rb", { branch: "main", commit_message: "delete", last_commit_id: seen })).toMatchObject({
      status: 400,
      body: { message: "You are attempting to delete a file that has been previously updated." },
    });

    const deleted = await api("DELETE", files(id, "app/project.rb"), { token: owner.token, body: { branch: "main", commit_message: "delete file" } });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect(git(dir, "ls-tree", "-r", "--name-only", "main").trim().split("\n")).toEqual(["README.md"]);
    expect(await send("DELETE", "app/project.rb", { branch: "main", commit_message: "again" })).toMatchObject({
      status: 400,
      body: { message: "A file with this name doesn't exist" },
    });
    expect(await send("POST", "x.rb", { branch: "main", commit_message: "m" })).toMatchObject({ status: 400, body: { error: "content is missing" } });
    expect(await send("POST", "x.rb", { branch: "main", content: "x", commit_message: "m", encoding: "hex" })).toMatchObject({
      status: 400,
      body: { error: "encoding does not have a valid value" },
    });
    expect(await send("POST", "../x", { branch: "main", content: "x", commit_message: "m" })).toMatchObject({
      status: 400,
      body: { error: "file_path should be a valid file path" },
    });
    fsck(dir);
    expect(commitSubjects(dir)).toEqual(["delete file", "update file", "create a new file", "Initial commit"]);
  });

  it("takes form bodies, base64 content, the execute flag and a new branch from start_branch", async () => {
    const { id, dir } = await newProject();
    const form = new URLSearchParams({
      branch: "feature",
      start_branch: "main",
      commit_message: "add script",
      content: Buffer.from("#!/bin/sh\necho hi\n").toString("base64"),
      encoding: "base64",
      execute_filemode: "true",
    });
    const created = await api("POST", files(id, "bin/run.sh"), { token: owner.token, raw: form.toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(created).toMatchObject({ status: 201, body: { file_path: "bin/run.sh", branch: "feature" } });
    expect(git(dir, "ls-tree", "feature", "bin/run.sh").split(" ")[0]).toBe("100755");
    expect(git(dir, "show", "feature:bin/run.sh")).toBe("#!/bin/sh\necho hi\n");
    expect(commitSubjects(dir, "feature")).toEqual(["add script", "Initial commit"]);
    expect(commitSubjects(dir, "main")).toEqual(["Initial commit"]);
    const got = await api("GET", `${files(id, "bin/run.sh")}?ref=feature`, { token: owner.token });
    expect(got.body).toMatchObject({ execute_filemode: true, content: form.get("content") });

    // An update keeps the mode unless it says otherwise.
    await api("PUT", files(id, "bin/run.sh"), { token: owner.token, body: { branch: "feature", content: "echo 2\n", commit_message: "v2" } });
    expect(git(dir, "ls-tree", "feature", "bin/run.sh").split(" ")[0]).toBe("100755");
    await api("PUT", files(id, "bin/run.sh"), { token: owner.token, body: { branch: "feature", content: "echo 3\n", commit_message: "v3", execute_filemode: false } });
    expect(git(dir, "ls-tree", "feature", "bin/run.sh").split(" ")[0]).toBe("100644");
    // The branch exists now: starting it again from main is refused.
    expect(
      await api("POST", files(id, "other.txt"), { token: owner.token, body: { branch: "feature", start_branch: "main", content: "x", commit_message: "m" } }),
    ).toMatchObject({ status: 400, body: { message: "A branch called 'feature' already exists. Switch to that branch in order to make changes" } });
    fsck(dir);
  });

  it("goes through the write path: refused while read-only with the message create-commit gives, and by scope and role", async () => {
    const { id, dir } = await newProject();
    const body = { branch: "main", content: "x", commit_message: "blocked" };
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    const readOnly = { status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } };
    const created = await api("POST", files(id, "x.txt"), { token: owner.token, body });
    expect(created).toMatchObject(readOnly);
    expect(created.headers.get("retry-after")).toBe("30");
    expect(await api("PUT", files(id, "README.md"), { token: owner.token, body })).toMatchObject(readOnly);
    expect(await api("DELETE", files(id, "README.md"), { token: owner.token, body: { branch: "main", commit_message: "blocked" } })).toMatchObject(readOnly);
    const viaCommits = await api("POST", `/api/v4/projects/${id}/repository/commits`, {
      token: owner.token,
      body: { branch: "main", commit_message: "blocked", actions: [{ action: "create", file_path: "x.txt", content: "x" }] },
    });
    expect(viaCommits.body).toEqual(created.body);
    // Reads go on while the repository is read-only.
    expect((await api("GET", `${files(id, "README.md")}?ref=main`, { token: owner.token })).status).toBe(200);
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :f", values: { ":f": false } });
    expect(commitSubjects(dir)).toEqual(["Initial commit"]);

    const readApi = await newUser({ scopes: ["read_api"] });
    expect((await api("POST", files(id, "x.txt"), { token: readApi.token, body })).status).toBe(403);
    const stranger = await newUser();
    expect((await api("DELETE", files(id, "README.md"), { token: stranger.token, body: { branch: "main", commit_message: "m" } })).status).toBe(404);
    expect(commitSubjects(dir)).toEqual(["Initial commit"]);
  });
});

describe("the clients and examples GitLab documents", () => {
  it("@gitbeaker/rest: RepositoryFiles.show, create, edit, remove", async () => {
    const { id, dir } = await newProject();
    const gl = new Gitlab({ host: baseUrl(), token: owner.token });
    await gl.RepositoryFiles.create(id, "lib/class.rb", "main", "class A; end\n", "gitbeaker create", { authorName: "Gitbeaker", authorEmail: "gb@example.com" });
    const shown = await gl.RepositoryFiles.show(id, "lib/class.rb", "main");
    expect(shown).toMatchObject({ file_name: "class.rb", file_path: "lib/class.rb", encoding: "base64", last_commit_id: git(dir, "rev-parse", "main").trim() });
    expect(Buffer.from(shown.content, "base64").toString()).toBe("class A; end\n");
    await gl.RepositoryFiles.edit(id, "lib/class.rb", "main", "class B; end\n", "gitbeaker edit", { lastCommitId: shown.last_commit_id });
    expect(git(dir, "show", "main:lib/class.rb")).toBe("class B; end\n");
    await expect(gl.RepositoryFiles.edit(id, "lib/class.rb", "main", "class C; end\n", "stale", { lastCommitId: shown.last_commit_id })).rejects.toThrow(
      /changed since you started editing it/,
    );
    await gl.RepositoryFiles.remove(id, "lib/class.rb", "main", "gitbeaker remove");
    await expect(gl.RepositoryFiles.show(id, "lib/class.rb", "main")).rejects.toThrow(/404/);
    expect(commitSubjects(dir)).toEqual(["gitbeaker remove", "gitbeaker edit", "gitbeaker create", "Initial commit"]);
    expect(git(dir, "log", "-1", "--skip=2", "--format=%an <%ae>", "main").trim()).toBe("Gitbeaker <gb@example.com>");
  });

  it("the curl lines of GitLab's repository files documentation, as written", async () => {
    const { id, dir } = await newProject();
    const docs = "https://gitlab.example.com/api/v4/projects/13083";
    // Each line as docs/api/repository_files.md writes it; only the host, project and token are ours.
    const run = async (line: string) => {
      const command = line.replaceAll(docs, `${baseUrl()}/api/v4/projects/${id}`).replaceAll("<your_access_token>", owner.token);
      return (await promisify(execFile)("bash", ["-c", command], { encoding: "utf8" })).stdout;
    };
    const key = "class Key < ApplicationRecord\nend\n";
    await api("POST", files(id, "app/models/key.rb"), { token: owner.token, body: { branch: "main", content: key, commit_message: "Add key" } });

    const got = await run(`curl --header "PRIVATE-TOKEN: <your_access_token>" \
  --url "https://gitlab.example.com/api/v4/projects/13083/repository/files/app%2Fmodels%2Fkey%2Erb?ref=main"`);
    expect(JSON.parse(got)).toEqual({
      file_name: "key.rb",
      file_path: "app/models/key.rb",
      size: key.length,
      encoding: "base64",
      content: Buffer.from(key).toString("base64"),
      content_sha256: sha256(key),
      ref: "main",
      blob_id: git(dir, "rev-parse", "main:app/models/key.rb").trim(),
      commit_id: git(dir, "rev-parse", "main").trim(),
      last_commit_id: git(dir, "rev-parse", "main").trim(),
      execute_filemode: false,
    });
    const head = await run(`curl --head --header "PRIVATE-TOKEN: <your_access_token>" \
  --url "https://gitlab.example.com/api/v4/projects/13083/repository/files/app%2Fmodels%2Fkey%2Erb?ref=main"`);
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r$/m);
    for (const [name, value] of Object.entries({ "Blob-Id": JSON.parse(got).blob_id, "Content-Sha256": sha256(key), "File-Name": "key.rb", "File-Path": "app/models/key.rb", Ref: "main", Size: String(key.length), "Execute-Filemode": "false" })) {
      expect(head).toMatch(new RegExp(`^X-Gitlab-${name}: ${value.replace(/[./]/g, "\\$&")}\r$`, "im"));
    }
    const raw = await run(`curl --header "PRIVATE-TOKEN: <your_access_token>" \
  --url "https://gitlab.example.com/api/v4/projects/13083/repository/files/app%2Fmodels%2Fkey%2Erb/raw?ref=main"`);
    expect(raw).toBe(key);

    const created = await run(`curl --request POST \
  --header 'PRIVATE-TOKEN: <your_access_token>' \
  --header "Content-Type: application/json" \
  --data '{"branch": "main", "author_email": "author@example.com", "author_name": "Firstname Lastname",
            "content": "some content", "commit_message": "create a new file"}' \
  --url "https://gitlab.example.com/api/v4/projects/13083/repository/files/app%2Fproject%2Erb"`);
    expect(JSON.parse(created)).toEqual({ file_path: "app/project.rb", branch: "main" });
    const updated = await run(`curl --request PUT \
  --header 'PRIVATE-TOKEN: <your_access_token>' \
  --header "Content-Type: application/json" \
  --data '{"branch": "main", "author_email": "author@example.com", "author_name": "Firstname Lastname",
       "content": "some content", "commit_message": "update file"}' \
  --url "https://gitlab.example.com/api/v4/projects/13083/repository/files/app%2Fproject%2Erb"`);
    expect(JSON.parse(updated)).toEqual({ file_path: "app/project.rb", branch: "main" });
    const deleted = await run(`curl --request DELETE \
  --header 'PRIVATE-TOKEN: <your_access_token>' \
  --header "Content-Type: application/json" \
  --data '{"branch": "main", "author_email": "author@example.com", "author_name": "Firstname Lastname",
       "commit_message": "delete file"}' \
  --url "https://gitlab.example.com/api/v4/projects/13083/repository/files/app%2Fproject%2Erb"`);
    expect(deleted).toBe("");
    expect(commitSubjects(dir)).toEqual(["delete file", "update file", "create a new file", "Add key", "Initial commit"]);
    expect(git(dir, "log", "-1", "--format=%an <%ae>", "main").trim()).toBe("Firstname Lastname <author@example.com>");
  });
});
