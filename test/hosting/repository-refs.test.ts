/**
 * GitLab's branches, tags and blobs APIs (`/projects/:id/repository/branches|tags|blobs`): what they
 * answer is checked against the repository with the git CLI; creating and deleting refs goes through
 * the one write path.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { execFileSync } from "node:child_process";
import { api, baseUrl, newUser, unique } from "../support/api.js";
import { fsck, git, repoPaths } from "../support/git.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { compareVersions } from "../../functions/hosting/domain/git/tags.js";
import { refSearch } from "../../functions/hosting/domain/git/ref-search.js";

let owner: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  owner = await newUser();
});

async function newProject(visibility = "private") {
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("refs"), initialize_with_readme: true, visibility } });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, path: res.body.path_with_namespace as string, dir: repoPaths("default", "project", res.body.id)[0]! };
}

async function commit(id: number, message: string, branch = "main", start_branch?: string) {
  const actions = [{ action: "create", file_path: `${unique("f")}.txt`, content: message }];
  const res = await api("POST", `/api/v4/projects/${id}/repository/commits`, { token: owner.token, body: { branch, start_branch, commit_message: message, actions } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

const repo = (id: number) => `/api/v4/projects/${id}/repository`;
const enc = encodeURIComponent;

async function setReadOnly(id: number, readOnly: boolean) {
  await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :r", values: { ":r": readOnly } });
}

describe("branches", () => {
  it("creates a branch from a branch, a tag or a commit and shows GitLab's branch entity", async () => {
    const { id, path, dir } = await newProject();
    const first = await commit(id, "first");
    const res = await api("POST", `${repo(id)}/branches`, { token: owner.token, body: { branch: "feature/one", ref: first.id } });
    expect(res.status, res.text).toBe(201);
    expect(git(dir, "rev-parse", "refs/heads/feature/one").trim()).toBe(first.id);
    expect(res.body).toMatchObject({
      name: "feature/one",
      merged: false, // at the default branch's own head: GitLab says merged only once the heads differ
      protected: false,
      default: false,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: true,
      web_url: expect.stringMatching(new RegExp(`/${path}/-/tree/feature/one$`)),
      commit: { id: first.id, short_id: first.id.slice(0, 8), title: "first", web_url: expect.stringMatching(new RegExp(`/${path}/-/commit/${first.id}$`)) },
    });
    fsck(dir);

    const ahead = await api("POST", `${repo(id)}/branches?branch=ahead&ref=main`, { token: owner.token });
    expect(ahead).toMatchObject({ status: 201, body: { name: "ahead", merged: false, commit: { id: first.id } } });
    await commit(id, "ahead of main", "ahead");
    await commit(id, "main moves on");
    const main = await api("GET", `${repo(id)}/branches/main`, { token: owner.token });
    expect(main.body).toMatchObject({ name: "main", default: true, merged: false, commit: { id: git(dir, "rev-parse", "main").trim(), title: "main moves on" } });
    // Now main contains feature/one but not `ahead`.
    expect((await api("GET", `${repo(id)}/branches/${enc("feature/one")}`, { token: owner.token })).body).toMatchObject({ merged: true });
    expect((await api("GET", `${repo(id)}/branches/ahead`, { token: owner.token })).body).toMatchObject({ merged: false, commit: { title: "ahead of main" } });

    git(dir, "tag", "v1", first.id);
    expect(await api("POST", `${repo(id)}/branches`, { token: owner.token, body: { branch: "from-tag", ref: "v1" } })).toMatchObject({ status: 201, body: { commit: { id: first.id } } });
  });

  it("lists branches by name with GitLab's search, sort and pages", async () => {
    const { id, dir } = await newProject();
    for (const name of ["feature-a", "feature-b", "fix-a", "Release"]) git(dir, "branch", name, "main");
    // fix-a's head is the newest commit (git dates to the second: this one is made in the future).
    const newest = execGit(dir, { GIT_COMMITTER_DATE: "@4000000000 +0000" }, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit-tree", "main^{tree}", "-p", "main", "-m", "newest").trim();
    git(dir, "update-ref", "refs/heads/fix-a", newest);
    const all = await api("GET", `${repo(id)}/branches`, { token: owner.token });
    expect(all.body.map((b: { name: string }) => b.name)).toEqual(git(dir, "for-each-ref", "--format=%(refname:short)", "refs/heads").trim().split("\n"));
    expect(all.headers.get("x-total")).toBe("5");
    const names = async (q: string) => (await api("GET", `${repo(id)}/branches?${q}`, { token: owner.token })).body.map((b: { name: string }) => b.name);
    expect(await names("search=feature")).toEqual(["feature-a", "feature-b"]);
    expect(await names("search=%5Efix")).toEqual(["fix-a"]);
    expect(await names("search=-a%24")).toEqual(["feature-a", "fix-a"]);
    expect(await names("search=release")).toEqual(["Release"]);
    expect(await names("search=%5Ef*-a%24")).toEqual(["feature-a", "fix-a"]);
    expect((await names("sort=updated_desc"))[0]).toBe("fix-a");
    expect((await names("sort=updated_asc")).at(-1)).toBe("fix-a");
    const page = await api("GET", `${repo(id)}/branches?per_page=2&page=2`, { token: owner.token });
    expect(page.body.map((b: { name: string }) => b.name)).toEqual(["feature-b", "fix-a"]); // after "Release" and "feature-a": git orders names bytewise
    expect(page.headers.get("x-next-page")).toBe("3");
    expect(page.headers.get("x-total-pages")).toBe("3");
  });

  it("answers GitLab's 400s for an invalid or taken name and an unknown ref, 404 for an unknown branch", async () => {
    const { id, dir } = await newProject();
    const post = (body: unknown) => api("POST", `${repo(id)}/branches`, { token: owner.token, body });
    expect(await post({ branch: "main", ref: "main" })).toMatchObject({ status: 400, body: { message: "Branch already exists" } });
    for (const branch of ["bad name", "a..b", "refs/heads/x", "-x", "x.lock", "HEAD"]) {
      expect(await post({ branch, ref: "main" }), branch).toMatchObject({ status: 400, body: { message: "Branch name is invalid" } });
    }
    expect(await post({ branch: "x", ref: "nope" })).toMatchObject({ status: 400, body: { message: "Invalid reference name: nope" } });
    const sha = git(dir, "rev-parse", "main").trim();
    expect(await post({ branch: sha, ref: "main" })).toMatchObject({ status: 400, body: { message: "You cannot create a branch with a SHA-1 or SHA-256 branch name." } });
    expect(await post({ ref: "main" })).toMatchObject({ status: 400, body: { error: "branch is missing" } });
    // An undeclared parameter is dropped, not refused (Grape's `declared(params)`); declared ones are still checked.
    expect(await post({ branch: "x", ref: "nope", extra: 1 })).toMatchObject({ status: 400, body: { message: "Invalid reference name: nope" } });
    expect(await post({ branch: 5, ref: "main", extra: 1 })).toMatchObject({ status: 400, body: { error: "branch is invalid" } });
    expect(await api("GET", `${repo(id)}/branches/nope`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Branch Not Found" } });
    expect(await api("DELETE", `${repo(id)}/branches/nope`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Branch Not Found" } });
    expect(await api("GET", `${repo(id)}/branches?sort=sideways`, { token: owner.token })).toMatchObject({ status: 400, body: { error: "sort does not have a valid value" } });
    expect(git(dir, "for-each-ref", "--format=%(refname)", "refs/heads").trim()).toBe("refs/heads/main");
  });

  it("deletes a branch (204), also a packed one, and refuses the default branch as GitLab does", async () => {
    const { id, dir } = await newProject();
    git(dir, "branch", "nested/deep/one", "main");
    git(dir, "branch", "packed", "main");
    git(dir, "pack-refs", "--all");
    expect((await api("DELETE", `${repo(id)}/branches/${enc("nested/deep/one")}`, { token: owner.token })).status).toBe(204);
    expect((await api("DELETE", `${repo(id)}/branches/packed`, { token: owner.token })).status).toBe(204);
    expect(git(dir, "for-each-ref", "--format=%(refname)", "refs/heads").trim()).toBe("refs/heads/main");
    fsck(dir);
    // The emptied folders went with it: a branch may now take their name.
    expect((await api("POST", `${repo(id)}/branches`, { token: owner.token, body: { branch: "nested", ref: "main" } })).status).toBe(201);

    const refused = await api("DELETE", `${repo(id)}/branches/main`, { token: owner.token });
    expect(refused).toMatchObject({ status: 400, body: { message: "The default branch of a project cannot be deleted." } });
    expect(git(dir, "rev-parse", "--verify", "refs/heads/main").trim()).toMatch(/^[0-9a-f]{40}$/);
  });

  it("goes through the write path (read-only during a storage move) and GitLab's permissions", async () => {
    const { id, dir } = await newProject();
    git(dir, "branch", "doomed", "main");
    await setReadOnly(id, true);
    for (const res of [
      await api("POST", `${repo(id)}/branches`, { token: owner.token, body: { branch: "new", ref: "main" } }),
      await api("DELETE", `${repo(id)}/branches/doomed`, { token: owner.token }),
    ]) {
      expect(res).toMatchObject({ status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } });
      expect(res.headers.get("retry-after")).toBe("30");
    }
    await setReadOnly(id, false);
    expect(git(dir, "for-each-ref", "--format=%(refname:short)", "refs/heads").trim().split("\n")).toEqual(["doomed", "main"]);

    expect((await api("GET", `${repo(id)}/branches`)).status).toBe(404); // private: anonymous sees nothing
    expect((await api("POST", `${repo(id)}/branches`, { body: { branch: "x", ref: "main" } })).status).toBe(401);
    const stranger = await newUser();
    expect(await api("GET", `${repo(id)}/branches`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    const readApi = await newUser({ scopes: ["read_api"] });
    expect((await api("POST", `${repo(id)}/branches`, { token: readApi.token, body: { branch: "x", ref: "main" } })).status).toBe(403);
    const reporter = await newUser();
    await api("POST", `/api/v4/projects/${id}/members`, { token: owner.token, body: { user_id: reporter.id, access_level: 20 } });
    const asReporter = await api("GET", `${repo(id)}/branches/main`, { token: reporter.token });
    expect(asReporter).toMatchObject({ status: 200, body: { can_push: false } });
    expect((await api("POST", `${repo(id)}/branches`, { token: reporter.token, body: { branch: "x", ref: "main" } })).status).toBe(403);
    expect((await api("DELETE", `${repo(id)}/branches/doomed`, { token: reporter.token })).status).toBe(403);

    const open = await newProject("public");
    expect(await api("GET", `${repo(open.id)}/branches/main`)).toMatchObject({ status: 200, body: { name: "main", can_push: false } });
  });
});

describe("tags", () => {
  it("creates lightweight and annotated tags as git sees them, and shows GitLab's tag entity", async () => {
    const { id, path, dir } = await newProject();
    const first = await commit(id, "first");
    const light = await api("POST", `${repo(id)}/tags`, { token: owner.token, body: { tag_name: "v1.0", ref: "main" } });
    expect(light.status, light.text).toBe(201);
    expect(light.body).toEqual({
      name: "v1.0",
      message: null,
      target: first.id,
      commit: expect.objectContaining({ id: first.id, title: "first", web_url: expect.stringMatching(new RegExp(`/${path}/-/commit/${first.id}$`)) }),
      release: null,
      protected: false,
      created_at: null,
    });
    expect(git(dir, "cat-file", "-t", "refs/tags/v1.0").trim()).toBe("commit");

    const annotated = await api("POST", `${repo(id)}/tags?tag_name=v2.0&ref=${first.id}`, { token: owner.token, body: { message: "  Release 2.0\n" } });
    expect(annotated.status, annotated.text).toBe(201);
    const tagObject = git(dir, "rev-parse", "refs/tags/v2.0").trim();
    expect(annotated.body).toMatchObject({ name: "v2.0", message: "Release 2.0", target: tagObject, commit: { id: first.id }, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000\+00:00$/) });
    expect(git(dir, "cat-file", "-t", tagObject).trim()).toBe("tag");
    expect(git(dir, "for-each-ref", "--format=%(taggername) %(taggeremail)|%(contents)", "refs/tags/v2.0").trim()).toBe(`User ${owner.username} <${owner.username}@example.com>|Release 2.0`);
    expect(git(dir, "rev-parse", "v2.0^{commit}").trim()).toBe(first.id);
    fsck(dir);

    expect((await api("GET", `${repo(id)}/tags/v2.0`, { token: owner.token })).body).toEqual(annotated.body);
    // A tag made by git itself reads the same way.
    git(dir, "-c", "user.name=Git User", "-c", "user.email=git@example.com", "tag", "-a", "-m", "from git", "v3.0", "main");
    expect((await api("GET", `${repo(id)}/tags/v3.0`, { token: owner.token })).body).toMatchObject({ message: "from git\n", created_at: expect.any(String) });
  });

  it("lists tags newest first by default, by name or version on request, with search and pages", async () => {
    const { id, dir } = await newProject();
    const at = (n: number) => ({ GIT_COMMITTER_DATE: `${1_700_000_000 + n} +0000` });
    const tagAt = (name: string, n: number) => execGit(dir, at(n), "-c", "user.name=t", "-c", "user.email=t@example.com", "tag", "-a", "-m", name, name, "main");
    tagAt("v1.9", 3);
    tagAt("v1.10", 1);
    tagAt("v1.2", 2);
    git(dir, "tag", "other", "main");
    const names = async (q = "") => (await api("GET", `${repo(id)}/tags?${q}`, { token: owner.token })).body.map((t: { name: string }) => t.name);
    const commitDate = Number(git(dir, "log", "-1", "--format=%ct", "main").trim());
    // `other` is lightweight: dated by its commit, made now, after the annotated ones' 2023 dates.
    expect(commitDate).toBeGreaterThan(1_700_000_003);
    expect(await names()).toEqual(["other", "v1.9", "v1.2", "v1.10"]);
    expect(await names("sort=asc")).toEqual(["v1.10", "v1.2", "v1.9", "other"]);
    expect(await names("order_by=name&sort=asc")).toEqual(["other", "v1.10", "v1.2", "v1.9"]);
    expect(await names("order_by=version&sort=asc")).toEqual(["other", "v1.2", "v1.9", "v1.10"]);
    expect(await names("search=%5Ev1")).toEqual(["v1.9", "v1.2", "v1.10"]);
    expect(await names("search=0%24")).toEqual(["v1.10"]);
    const page = await api("GET", `${repo(id)}/tags?per_page=3&page=2`, { token: owner.token });
    expect(page.body.map((t: { name: string }) => t.name)).toEqual(["v1.10"]);
    expect(page.headers.get("x-total")).toBe("4");
    expect(await api("GET", `${repo(id)}/tags?order_by=size`, { token: owner.token })).toMatchObject({ status: 400, body: { error: "order_by does not have a valid value" } });
  });

  it("answers GitLab's 400s (name, target, taken) and 404s, deletes with 204", async () => {
    const { id, dir } = await newProject();
    const post = (body: unknown) => api("POST", `${repo(id)}/tags`, { token: owner.token, body });
    expect(await post({ tag_name: "v1", ref: "main" })).toMatchObject({ status: 201 });
    expect(await post({ tag_name: "v1", ref: "main" })).toMatchObject({ status: 400, body: { message: "Tag v1 already exists" } });
    expect(await post({ tag_name: "bad name", ref: "main" })).toMatchObject({ status: 400, body: { message: "Tag name invalid" } });
    expect(await post({ tag_name: "v2", ref: "nope" })).toMatchObject({ status: 400, body: { message: "Target nope is invalid" } });
    expect(await post({ tag_name: "v2", ref: "" })).toMatchObject({ status: 400, body: { message: "Target is empty" } });
    expect(await post({ tag_name: "v2" })).toMatchObject({ status: 400, body: { error: "ref is missing" } });
    expect(await api("GET", `${repo(id)}/tags/nope`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Tag Not Found" } });
    expect(await api("DELETE", `${repo(id)}/tags/nope`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Tag Not Found" } });

    git(dir, "tag", "packed", "main");
    git(dir, "pack-refs", "--all");
    expect((await api("DELETE", `${repo(id)}/tags/v1`, { token: owner.token })).status).toBe(204);
    expect((await api("DELETE", `${repo(id)}/tags/packed`, { token: owner.token })).status).toBe(204);
    expect(git(dir, "tag", "--list").trim()).toBe("");
    fsck(dir);
  });

  it("goes through the write path (read-only during a storage move) and GitLab's permissions", async () => {
    const { id, dir } = await newProject();
    git(dir, "tag", "kept", "main");
    await setReadOnly(id, true);
    for (const res of [
      await api("POST", `${repo(id)}/tags`, { token: owner.token, body: { tag_name: "new", ref: "main" } }),
      await api("DELETE", `${repo(id)}/tags/kept`, { token: owner.token }),
    ]) {
      expect(res).toMatchObject({ status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } });
    }
    await setReadOnly(id, false);
    expect(git(dir, "tag", "--list").trim()).toBe("kept");

    expect((await api("POST", `${repo(id)}/tags`, { body: { tag_name: "x", ref: "main" } })).status).toBe(401);
    const stranger = await newUser();
    expect(await api("GET", `${repo(id)}/tags`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    const readApi = await newUser({ scopes: ["read_api"] });
    expect((await api("DELETE", `${repo(id)}/tags/kept`, { token: readApi.token })).status).toBe(403);
    const reporter = await newUser();
    await api("POST", `/api/v4/projects/${id}/members`, { token: owner.token, body: { user_id: reporter.id, access_level: 20 } });
    expect((await api("GET", `${repo(id)}/tags/kept`, { token: reporter.token })).status).toBe(200);
    expect((await api("POST", `${repo(id)}/tags`, { token: reporter.token, body: { tag_name: "x", ref: "main" } })).status).toBe(403);
    expect(git(dir, "tag", "--list").trim()).toBe("kept");
  });
});

describe("blobs", () => {
  it("answers a blob by id as JSON (base64) and raw, as git stores it", async () => {
    const { id, dir } = await newProject();
    const bytes = Buffer.from([0, 1, 2, 255, 10]);
    await api("POST", `/api/v4/projects/${id}/repository/commits`, {
      token: owner.token,
      body: { branch: "main", commit_message: "bin", actions: [{ action: "create", file_path: "b.bin", content: bytes.toString("base64"), encoding: "base64" }] },
    });
    const sha = git(dir, "rev-parse", "main:b.bin").trim();
    expect(await api("GET", `${repo(id)}/blobs/${sha}`, { token: owner.token })).toMatchObject({ status: 200, body: { size: 5, encoding: "base64", content: bytes.toString("base64"), sha } });
    const raw = await fetch(`${baseUrl()}${repo(id)}/blobs/${sha.slice(0, 10)}/raw`, { headers: { "Private-Token": owner.token } });
    expect(raw.status).toBe(200);
    expect(Buffer.from(await raw.arrayBuffer())).toEqual(bytes);
    expect(raw.headers.get("x-content-type-options")).toBe("nosniff");

    // A commit or tree id is no blob; nor is an id that exists nowhere.
    for (const other of [git(dir, "rev-parse", "main").trim(), git(dir, "rev-parse", "main^{tree}").trim(), "0".repeat(40), "not-a-sha"]) {
      expect(await api("GET", `${repo(id)}/blobs/${other}`, { token: owner.token }), other).toMatchObject({ status: 404, body: { message: "404 Blob Not Found" } });
      expect((await api("GET", `${repo(id)}/blobs/${other}/raw`, { token: owner.token })).status).toBe(404);
    }
    expect((await api("GET", `${repo(id)}/blobs/${"a".repeat(65)}`, { token: owner.token })).status).toBe(400);
    expect((await api("GET", `${repo(id)}/blobs/${sha}`)).status).toBe(404);
    expect(await api("GET", `${repo(id)}/blobs/${sha}`, { token: (await newUser()).token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
  });
});

describe("GitLab's ref search and version order", () => {
  it("matches as GitLab's finder does", () => {
    expect(["Main", "domain", "maintain"].filter(refSearch("MAIN"))).toEqual(["Main", "domain", "maintain"]);
    expect(["Main", "domain", "maintain"].filter(refSearch("^main"))).toEqual(["Main", "maintain"]);
    expect(["Main", "domain", "maintain"].filter(refSearch("ain$"))).toEqual(["Main", "domain", "maintain"]);
    expect(["a.b", "axb"].filter(refSearch("a.b"))).toEqual(["a.b"]);
    expect(["v1.10", "v1.9", "v1.2", "v2"].sort(compareVersions)).toEqual(["v1.2", "v1.9", "v1.10", "v2"]);
  });
});

function execGit(dir: string, env: Record<string, string>, ...args: string[]) {
  return execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
}
