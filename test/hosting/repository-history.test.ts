/**
 * Reads of a project's history: a single commit with its stats, a commit's sequence number, the
 * contributors, the comparison of two refs and the languages of the default branch, each checked
 * against the git CLI on the repository itself.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, newUser, unique } from "../support/api.js";
import { git, repoPaths } from "../support/git.js";

let owner: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  owner = await newUser();
});

async function newProject(visibility = "private") {
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("history"), initialize_with_readme: true, visibility } });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, path: res.body.path_with_namespace as string, dir: repoPaths("default", "project", res.body.id)[0]! };
}

async function commit(id: number, message: string, actions: unknown[], opts: { branch?: string; start_branch?: string; author_email?: string; author_name?: string } = {}) {
  const res = await api("POST", `/api/v4/projects/${id}/repository/commits`, { token: owner.token, body: { branch: "main", commit_message: message, actions, ...opts } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

/** A merge commit of `main` and `other` made with the git CLI, as a push would bring it. */
function merge(dir: string, other: string): string {
  const tree = git(dir, "rev-parse", "main^{tree}").trim();
  const oid = git(dir, "-c", "user.name=Merger", "-c", "user.email=merger@example.com", "commit-tree", tree, "-p", "main", "-p", other, "-m", "Merge").trim();
  git(dir, "update-ref", "refs/heads/main", oid);
  return oid;
}

const base = (id: number) => `/api/v4/projects/${id}/repository`;

describe("GET /projects/:id/repository/commits/:sha", () => {
  it("answers GitLab's CommitDetail by id, short id, branch or tag, with git's numstat as stats", async () => {
    const { id, dir, path } = await newProject();
    await commit(id, "base", [{ action: "create", file_path: "a.txt", content: "1\n2\n3\n" }, { action: "create", file_path: "gone.txt", content: "x\ny\n" }]);
    const change = await commit(id, "Change things\n\nwith a body", [
      { action: "update", file_path: "a.txt", content: "1\ntwo\n3\n4\n" },
      { action: "delete", file_path: "gone.txt" },
      { action: "create", file_path: "bin", content: Buffer.from([0, 1, 2]).toString("base64"), encoding: "base64" },
    ]);
    git(dir, "tag", "v1", change.id);
    const numstat = git(dir, "show", "--numstat", "--format=", change.id).trim().split("\n").map((l) => l.split("\t"));
    const added = numstat.reduce((n, [a]) => n + (a === "-" ? 0 : Number(a)), 0);
    const removed = numstat.reduce((n, [, d]) => n + (d === "-" ? 0 : Number(d)), 0);

    const res = await api("GET", `${base(id)}/commits/${change.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: change.id,
      short_id: change.id.slice(0, 8),
      title: "Change things",
      message: "Change things\n\nwith a body",
      author_name: `User ${owner.username}`,
      author_email: `${owner.username}@example.com`,
      authored_date: expect.any(String),
      committer_name: `User ${owner.username}`,
      committer_email: `${owner.username}@example.com`,
      committed_date: expect.any(String),
      created_at: expect.any(String),
      parent_ids: [git(dir, "rev-parse", `${change.id}~1`).trim()],
      web_url: expect.stringMatching(new RegExp(`/${path}/-/commit/${change.id}$`)),
      stats: { additions: added, deletions: removed, total: added + removed },
      status: null,
      project_id: id,
      last_pipeline: null,
    });
    expect(res.body.stats).toEqual({ additions: 2, deletions: 3, total: 5 });
    for (const name of ["main", "v1", change.id.slice(0, 10)]) expect((await api("GET", `${base(id)}/commits/${name}`, { token: owner.token })).body.id).toBe(change.id);
    expect((await api("GET", `${base(id)}/commits/${change.id}?stats=false`, { token: owner.token })).body).not.toHaveProperty("stats");
    // A branch with a slash arrives URL-encoded.
    await commit(id, "on feature", [{ action: "create", file_path: "f", content: "f" }], { branch: "feature/x", start_branch: "main" });
    expect((await api("GET", `${base(id)}/commits/feature%2Fx`, { token: owner.token })).body.title).toBe("on feature");
  });

  it("answers 404 Commit Not Found, 404 to strangers, 403 to a Guest, and 400 for a bad stats value", async () => {
    const { id } = await newProject();
    expect(await api("GET", `${base(id)}/commits/0000000000000000000000000000000000000000`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    expect(await api("GET", `${base(id)}/commits/nope`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    const stranger = await newUser();
    expect(await api("GET", `${base(id)}/commits/main`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await api("GET", `${base(id)}/commits/main`)).status).toBe(404);
    const guest = await newUser();
    expect((await api("POST", `/api/v4/projects/${id}/members`, { token: owner.token, body: { user_id: guest.id, access_level: 10 } })).status).toBe(201);
    expect(await api("GET", `${base(id)}/commits/main`, { token: guest.token })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await api("GET", `${base(id)}/commits/main?stats=maybe`, { token: owner.token })).toMatchObject({ status: 400 });
    const pub = await newProject("public");
    expect((await api("GET", `${base(pub.id)}/commits/main`)).status).toBe(200);
  });
});

describe("GET /projects/:id/repository/commits/:sha/sequence", () => {
  it("counts as git rev-list --count does, all parents or first parents only", async () => {
    const { id, dir } = await newProject();
    const side = await commit(id, "side", [{ action: "create", file_path: "s", content: "s" }], { branch: "side", start_branch: "main" });
    await commit(id, "side 2", [{ action: "create", file_path: "s2", content: "s" }], { branch: "side" });
    await commit(id, "main 1", [{ action: "create", file_path: "m", content: "m" }]);
    merge(dir, "side");
    const count = async (q = "") => (await api("GET", `${base(id)}/commits/main/sequence${q}`, { token: owner.token })).body;
    expect(await count()).toEqual({ count: Number(git(dir, "rev-list", "--count", "main").trim()) });
    expect(await count("?first_parent=true")).toEqual({ count: Number(git(dir, "rev-list", "--count", "--first-parent", "main").trim()) });
    expect((await count()).count).toBe(5);
    expect((await count("?first_parent=true")).count).toBe(3);
    expect((await api("GET", `${base(id)}/commits/${side.id}/sequence`, { token: owner.token })).body).toEqual({ count: 2 });
    expect(await api("GET", `${base(id)}/commits/nope/sequence`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    expect(await api("GET", `${base(id)}/commits/main/sequence?first_parent=x`, { token: owner.token })).toMatchObject({ status: 400 });
    expect((await api("GET", `${base(id)}/commits/main/sequence`, { token: (await newUser()).token })).status).toBe(404);
  });
});

describe("GET /projects/:id/repository/contributors", () => {
  it("counts each author e-mail's commits of the ref without merges, sorted as asked", async () => {
    const { id, dir } = await newProject("public");
    const as = (name: string) => ({ author_name: name, author_email: `${name.toLowerCase()}@example.com` });
    await commit(id, "a1", [{ action: "create", file_path: "a1", content: "a" }], as("Ann"));
    await commit(id, "a2", [{ action: "create", file_path: "a2", content: "a" }], as("Ann"));
    await commit(id, "b1", [{ action: "create", file_path: "b1", content: "b" }], { ...as("Bob"), branch: "bob", start_branch: "main" });
    await commit(id, "c1", [{ action: "create", file_path: "c1", content: "c" }], as("Cid"));
    merge(dir, "bob");
    const list = async (q = "") => (await api("GET", `${base(id)}/contributors${q}`, { token: owner.token })).body;
    const readme = { name: `User ${owner.username}`, email: `${owner.username}@example.com`, commits: 1, additions: 0, deletions: 0 };
    const ann = { name: "Ann", email: "ann@example.com", commits: 2, additions: 0, deletions: 0 };
    const bob = { name: "Bob", email: "bob@example.com", commits: 1, additions: 0, deletions: 0 };
    const cid = { name: "Cid", email: "cid@example.com", commits: 1, additions: 0, deletions: 0 };
    // The merge commit (by Merger) is not counted; equal counts keep the order of each author's newest commit.
    expect(await list()).toEqual([cid, bob, readme, ann]);
    expect(git(dir, "shortlog", "-se", "--no-merges", "main").trim().split("\n")).toHaveLength(4);
    expect(await list("?order_by=commits&sort=desc")).toEqual([ann, cid, bob, readme]);
    expect((await list("?order_by=name")).map((c: { name: string }) => c.name)).toEqual(["Ann", "Bob", "Cid", readme.name]);
    expect((await list("?order_by=email&sort=desc")).map((c: { email: string }) => c.email)).toEqual([readme.email, "cid@example.com", "bob@example.com", "ann@example.com"].sort().reverse());
    expect(await list("?ref=bob")).toEqual([bob, ann, readme].sort((a, b) => a.commits - b.commits));
    const page = await api("GET", `${base(id)}/contributors?per_page=3&page=2`);
    expect(page.body).toEqual([ann]);
    expect(page.headers.get("x-total")).toBe("4");
    expect(await api("GET", `${base(id)}/contributors?ref=nope`)).toMatchObject({ status: 404 });
    expect(await api("GET", `${base(id)}/contributors?order_by=date`)).toMatchObject({ status: 400 });
    expect(await api("GET", `${base(id)}/contributors?sort=up`)).toMatchObject({ status: 400 });
    const priv = await newProject();
    expect((await api("GET", `${base(priv.id)}/contributors`)).status).toBe(404);
    expect((await api("GET", `${base(priv.id)}/contributors`, { token: (await newUser()).token })).status).toBe(404);
  });
});

describe("GET /projects/:id/repository/compare", () => {
  it("lists from..to oldest first and diffs from the merge base, or straight from `from`", async () => {
    const { id, dir, path } = await newProject();
    const fork = await commit(id, "on main before", [{ action: "create", file_path: "base.txt", content: "base\n" }]);
    const f1 = await commit(id, "feature one", [{ action: "create", file_path: "f1.txt", content: "one\n" }], { branch: "feature", start_branch: "main" });
    const f2 = await commit(id, "feature two", [{ action: "update", file_path: "base.txt", content: "base\nmore\n" }], { branch: "feature" });
    await commit(id, "main moves on", [{ action: "create", file_path: "main.txt", content: "main\n" }]);

    const res = await api("GET", `${base(id)}/compare?from=main&to=feature`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.commits.map((c: { id: string }) => c.id)).toEqual(git(dir, "rev-list", "--reverse", "main..feature").trim().split("\n"));
    expect(res.body.commits.map((c: { id: string }) => c.id)).toEqual([f1.id, f2.id]);
    expect(res.body.commit).toMatchObject({ id: f2.id, title: "feature two", web_url: expect.stringContaining(`/${path}/-/commit/${f2.id}`) });
    // Through the merge base: main's own later file is not in the diff.
    expect(res.body.diffs.map((d: { new_path: string }) => d.new_path)).toEqual(git(dir, "diff", "--name-only", "main...feature").trim().split("\n"));
    expect(res.body.diffs[0]).toMatchObject({ old_path: "base.txt", new_path: "base.txt", diff: "@@ -1 +1,2 @@\n base\n+more\n", new_file: false });
    expect(res.body).toMatchObject({ compare_timeout: false, compare_same_ref: false });
    expect(res.body.web_url).toMatch(new RegExp(`/${path}/-/compare/${fork.id}\\.\\.\\.${f2.id}$`));

    const straight = await api("GET", `${base(id)}/compare?from=main&to=feature&straight=true`, { token: owner.token });
    expect(straight.body.diffs.map((d: { new_path: string }) => d.new_path)).toEqual(git(dir, "diff", "--name-only", "main", "feature").trim().split("\n"));
    expect(straight.body.diffs.find((d: { new_path: string }) => d.new_path === "main.txt")).toMatchObject({ deleted_file: true });
    expect(straight.body.commits).toHaveLength(2);

    const same = await api("GET", `${base(id)}/compare?from=feature&to=${f2.id}`, { token: owner.token });
    expect(same.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true });
    const backwards = await api("GET", `${base(id)}/compare?from=feature&to=main`, { token: owner.token });
    expect(backwards.body.commits.map((c: { title: string }) => c.title)).toEqual(["main moves on"]);
  });

  it("answers 404 Ref Not Found, 400 for missing refs, and reads a public repository without a token", async () => {
    const { id } = await newProject("public");
    expect(await api("GET", `${base(id)}/compare?from=main&to=nope`)).toMatchObject({ status: 404, body: { message: "404 Ref Not Found" } });
    expect(await api("GET", `${base(id)}/compare?from=nope&to=main`)).toMatchObject({ status: 404, body: { message: "404 Ref Not Found" } });
    expect(await api("GET", `${base(id)}/compare?from=main`)).toMatchObject({ status: 400 });
    expect(await api("GET", `${base(id)}/compare?from=main&to=main&straight=sure`)).toMatchObject({ status: 400 });
    expect(await api("GET", `${base(id)}/compare?from=main&to=main`)).toMatchObject({ status: 200, body: { compare_same_ref: true } });
    const priv = await newProject();
    expect((await api("GET", `${base(priv.id)}/compare?from=main&to=main`)).status).toBe(404);
    // Who may read comes before the parameters: a stranger learns nothing from a 400.
    expect((await api("GET", `${base(priv.id)}/compare?from=main`)).status).toBe(404);
    expect(await api("GET", `${base(priv.id)}/compare`, { token: owner.token })).toMatchObject({ status: 400, body: { error: "from is missing, to is missing" } });
  });

  it("compares from another project of the fork network (`from_project_id`), and refuses one outside it", async () => {
    const source = await newProject();
    const shared = await commit(source.id, "before the fork", [{ action: "create", file_path: "s.txt", content: "s\n" }]);
    const fork = await api("POST", `/api/v4/projects/${source.id}/fork`, { token: owner.token, body: { path: unique("fork"), name: unique("fork") } });
    expect(fork.status, fork.text).toBe(201);
    const mine = await commit(fork.body.id, "fork work", [{ action: "create", file_path: "f.txt", content: "f\n" }]);
    const res = await api("GET", `${base(fork.body.id)}/compare?from=main&to=main&from_project_id=${source.id}`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.commits.map((c: { id: string }) => c.id)).toEqual([mine.id]);
    expect(res.body.web_url).toContain(`/-/compare/${shared.id}...${mine.id}`);
    const unrelated = await newProject();
    expect(await api("GET", `${base(fork.body.id)}/compare?from=main&to=main&from_project_id=${unrelated.id}`, { token: owner.token })).toMatchObject({
      status: 400,
      body: { message: `Target project id:${unrelated.id} is not a fork of project id:${fork.body.id}` },
    });
    expect((await api("GET", `${base(fork.body.id)}/compare?from=main&to=main&from_project_id=abc`, { token: owner.token })).status).toBe(400);
  });
});

describe("GET /projects/:id/languages", () => {
  it("gives each language's share of the default branch's bytes, two decimals, largest first; documentation and vendored code left out", async () => {
    const { id } = await newProject("public");
    expect((await api("GET", `/api/v4/projects/${id}/languages`)).body).toEqual({});
    await commit(id, "code", [
      { action: "create", file_path: "app/main.rb", content: "r".repeat(200) },
      { action: "create", file_path: "lib/util.py", content: "p".repeat(150) },
      { action: "create", file_path: "web/index.html", content: "h".repeat(300) },
      { action: "create", file_path: "vendor/lib.rb", content: "v".repeat(5000) },
      { action: "create", file_path: "docs/guide.py", content: "d".repeat(5000) },
      { action: "create", file_path: "data.json", content: "{}".repeat(3000) },
      { action: "create", file_path: ".eslintrc.js", content: "x".repeat(3000) },
      { action: "create", file_path: "Makefile", content: "m".repeat(100) },
    ]);
    await commit(id, "elsewhere", [{ action: "create", file_path: "other.go", content: "g".repeat(9000) }], { branch: "other", start_branch: "main" });
    const res = await api("GET", `/api/v4/projects/${id}/languages`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ HTML: 40, Ruby: 26.67, Python: 20, Makefile: 13.33 });
    expect(Object.keys(res.body)).toEqual(["HTML", "Ruby", "Python", "Makefile"]);
    const priv = await newProject();
    expect((await api("GET", `/api/v4/projects/${priv.id}/languages`)).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${priv.id}/languages`, { token: owner.token })).body).toEqual({});
  });
});
