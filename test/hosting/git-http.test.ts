/**
 * Git over HTTP, driven only through the real `git` CLI against the runtime on loopback: clone of a
 * project's `http_url_to_repo`, fetch, push (also force, branches, tags), shallow clones, protocol
 * v0 and v2, GitLab's permission matrix, the write path (read-only during a storage move, pushes
 * racing API commits), cluster replicas kept in step and the project's fetch statistics.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { adminToken, api, baseUrl, newUser, unique } from "../support/api.js";
import { commitSubjects, fsck, git as gitAt, repoPaths } from "../support/git.js";
import { getItem, updateItem } from "../../functions/platform/db/table.js";
import { fetchStatistics, recordFetch } from "../../functions/hosting/domain/fetch-statistics.js";
import { replicaChecksums } from "../../functions/hosting/domain/git/checksum.js";
import { hashedRelativePath } from "../../functions/hosting/domain/git/storage.js";
import { scheduleMove, waitForMove } from "../moves/support.js";

const run = promisify(execFile);
const READ_ONLY = "The repository is temporarily read-only. Please try again later.";

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "git-http-"));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** git with no user or system configuration and no prompts; `ok: false` when it exits non-zero. */
async function git(args: string[], cwd = home): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "Pusher", GIT_AUTHOR_EMAIL: "pusher@example.com", GIT_COMMITTER_NAME: "Pusher", GIT_COMMITTER_EMAIL: "pusher@example.com" };
  try {
    const { stdout, stderr } = await run("git", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { ok: true, stdout, stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

async function gitOk(args: string[], cwd = home) {
  const result = await git(args, cwd);
  expect(result.ok, `git ${args.join(" ")}: ${result.stderr}`).toBe(true);
  return result;
}

/** The URL with `user:token` in it, as users paste it (`oauth2:<token>`). */
function withToken(url: string, token: string | undefined, user = "oauth2"): string {
  const u = new URL(url);
  if (token) {
    u.username = user;
    u.password = token;
  }
  return u.toString();
}

const dir = (name: string) => join(home, unique(name));

async function newProject(token: string, opts: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/v4/projects", { token, body: { name: unique("git"), initialize_with_readme: true, ...opts } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; http_url_to_repo: string; path_with_namespace: string; web_url: string };
}

async function commitFile(work: string, file: string, content: string, message = `add ${file}`) {
  writeFileSync(join(work, file), content);
  await gitOk(["add", file], work);
  await gitOk(["commit", "-q", "-m", message], work);
  return (await gitOk(["rev-parse", "HEAD"], work)).stdout.trim();
}

let owner: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  owner = await newUser();
});

describe("clone, push, fetch over HTTP", () => {
  it("clones http_url_to_repo with a token, and a commit pushed back is seen through the API", async () => {
    const project = await newProject(owner.token);
    expect(project.http_url_to_repo).toBe(`${baseUrl()}/${project.path_with_namespace}.git`);
    const work = dir("clone");
    await gitOk(["clone", "-q", withToken(project.http_url_to_repo, owner.token), work]);
    expect((await gitOk(["log", "--format=%s"], work)).stdout.trim()).toBe("Initial commit");

    const sha = await commitFile(work, "pushed.txt", "over http\n", "pushed over http");
    await gitOk(["push", "-q", "origin", "main"], work);
    const commits = await api("GET", `/api/v4/projects/${project.id}/repository/commits`, { token: owner.token });
    expect(commits.status).toBe(200);
    expect(commits.body[0]).toMatchObject({ id: sha, title: "pushed over http" });
    const file = await api("GET", `/api/v4/projects/${project.id}/repository/files/pushed.txt/raw?ref=main`, { token: owner.token });
    expect(file.text).toBe("over http\n");

    // An API commit, then fetched into the clone.
    const apiCommit = await api("POST", `/api/v4/projects/${project.id}/repository/commits`, {
      token: owner.token,
      body: { branch: "main", commit_message: "from the api", actions: [{ action: "create", file_path: "api.txt", content: "api\n" }] },
    });
    expect(apiCommit.status, apiCommit.text).toBe(201);
    await gitOk(["fetch", "-q", "origin"], work);
    expect((await gitOk(["rev-parse", "origin/main"], work)).stdout.trim()).toBe(apiCommit.body.id);
    for (const copy of repoPaths("default", "project", project.id)) fsck(copy);
  });
});

describe("the smart protocol as git negotiates it", () => {
  it("force pushes, creates and deletes branches and tags, clones shallow, speaks v2 and v0", async () => {
    const project = await newProject(owner.token);
    const url = withToken(project.http_url_to_repo, owner.token);
    const work = dir("refs");
    await gitOk(["clone", "-q", url, work]);
    const first = await commitFile(work, "a.txt", "1\n");
    await gitOk(["push", "-q", "origin", "main"], work);

    // A rewritten main: refused without --force, taken with it once its protection allows force pushes
    // (`git-http-protected.test.ts` shows the refusals).
    const unlocked = await api("PATCH", `/api/v4/projects/${project.id}/protected_branches/main`, { token: owner.token, body: { allow_force_push: true } });
    expect(unlocked.status, unlocked.text).toBe(200);
    await gitOk(["reset", "-q", "--hard", "HEAD~1"], work);
    const rewritten = await commitFile(work, "b.txt", "2\n", "rewritten");
    expect((await git(["push", "-q", "origin", "main"], work)).stderr).toMatch(/rejected/);
    await gitOk(["push", "-q", "--force", "origin", "main"], work);
    const branches = async () => (await api("GET", `/api/v4/projects/${project.id}/repository/branches`, { token: owner.token })).body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id]);
    expect(await branches()).toEqual([["main", rewritten]]);

    await gitOk(["push", "-q", "origin", `${first}:refs/heads/feature`, `${rewritten}:refs/tags/v1.0`], work);
    expect(await branches()).toEqual([["feature", first], ["main", rewritten]]);
    const tags = await api("GET", `/api/v4/projects/${project.id}/repository/tags`, { token: owner.token });
    expect(tags.body.map((t: { name: string }) => t.name)).toEqual(["v1.0"]);
    await gitOk(["push", "-q", "origin", "--delete", "feature", "v1.0"], work);
    expect(await branches()).toEqual([["main", rewritten]]);
    expect((await api("GET", `/api/v4/projects/${project.id}/repository/tags`, { token: owner.token })).body).toEqual([]);

    const shallow = dir("shallow");
    await gitOk(["clone", "-q", "--depth", "1", url, shallow]);
    expect((await gitOk(["rev-list", "--count", "HEAD"], shallow)).stdout.trim()).toBe("1");
    expect((await gitOk(["rev-parse", "--is-shallow-repository"], shallow)).stdout.trim()).toBe("true");

    // Protocol v2 is git's default; v0 when asked. GIT_TRACE_PACKET shows which one was spoken.
    const v2 = await gitOk(["-c", "protocol.version=2", "ls-remote", url], home);
    expect(v2.stdout).toContain(`${rewritten}\trefs/heads/main`);
    const traced = await run("git", ["-c", "protocol.version=2", "ls-remote", url], { env: { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: "0", GIT_TRACE_PACKET: "1" } });
    expect(traced.stderr).toMatch(/git< version 2/);
    const v0dir = dir("v0");
    const v0 = await run("git", ["-c", "protocol.version=0", "clone", url, v0dir], { env: { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: "0", GIT_TRACE_PACKET: "1" } });
    expect(v0.stderr).not.toMatch(/git< version 2/);
    expect((await gitOk(["rev-parse", "HEAD"], v0dir)).stdout.trim()).toBe(rewritten);

    // A partial clone (blob:none) is served too, as git http-backend does.
    const partial = dir("partial");
    await gitOk(["clone", "-q", "--filter=blob:none", url, partial]);
    expect((await gitOk(["config", "remote.origin.promisor"], partial)).stdout.trim()).toBe("true");
  });

  it("redirects a clone URL without .git, as GitLab does", async () => {
    const project = await newProject(owner.token);
    const work = dir("no-dot-git");
    await gitOk(["clone", "-q", withToken(project.web_url, owner.token), work]);
    expect((await gitOk(["log", "--format=%s"], work)).stdout.trim()).toBe("Initial commit");
  });
});

describe("who may clone and push", () => {
  it("follows GitLab's matrix: anonymous, Reporter, Developer, read_repository token, revoked token", async () => {
    const reporter = await newUser();
    const developer = await newUser();
    const stranger = await newUser();
    const readOnlyToken = await newUser({ scopes: ["read_repository"] });
    const userScope = await newUser({ scopes: ["read_user"] });
    const priv = await newProject(owner.token, { visibility: "private" });
    const pub = await newProject(owner.token, { visibility: "public" });
    for (const [user, level] of [[reporter, 20], [developer, 30], [readOnlyToken, 40], [userScope, 40]] as const) {
      for (const p of [priv, pub]) {
        const added = await api("POST", `/api/v4/projects/${p.id}/members`, { token: owner.token, body: { user_id: user.id, access_level: level } });
        expect(added.status, added.text).toBe(201);
      }
    }
    const lsRemote = (p: { http_url_to_repo: string }, token?: string) => git(["ls-remote", withToken(p.http_url_to_repo, token)]);

    // Anonymous: a public project clones; a private one asks for credentials (git: Authentication failed).
    expect((await lsRemote(pub)).ok).toBe(true);
    const anonymous = await lsRemote(priv);
    expect(anonymous.ok).toBe(false);
    expect(anonymous.stderr).toMatch(/could not read Username|Authentication failed/);
    // Another user's private project is absent; members of any role from Reporter read it.
    const hidden = await lsRemote(priv, stranger.token);
    expect(hidden.stderr).toMatch(/not found/);
    expect(hidden.stderr).toContain("The project you were looking for could not be found");
    for (const user of [reporter, developer, readOnlyToken]) expect((await lsRemote(priv, user.token)).ok).toBe(true);
    // A token without a repository scope cannot use git at all.
    expect((await lsRemote(priv, userScope.token)).stderr).toMatch(/Authentication failed/);

    const pushAs = async (p: { http_url_to_repo: string }, token: string | undefined, branch: string) => {
      const work = dir("push");
      await gitOk(["clone", "-q", withToken(p.http_url_to_repo, owner.token), work]);
      await commitFile(work, `${branch}.txt`, branch);
      await gitOk(["remote", "set-url", "origin", withToken(p.http_url_to_repo, token)], work);
      return git(["push", "origin", `HEAD:refs/heads/${branch}`], work);
    };
    const reporterPush = await pushAs(priv, reporter.token, "by-reporter");
    expect(reporterPush.ok).toBe(false);
    expect(reporterPush.stderr).toContain("You are not allowed to push code to this project.");
    const scopedPush = await pushAs(priv, readOnlyToken.token, "by-read-token");
    expect(scopedPush.ok).toBe(false);
    expect(scopedPush.stderr).toContain("You are not allowed to upload code.");
    const anonymousPush = await pushAs(pub, undefined, "by-anonymous");
    expect(anonymousPush.ok).toBe(false);
    expect(anonymousPush.stderr).toMatch(/could not read Username|Authentication failed/);
    expect((await pushAs(priv, developer.token, "by-developer")).ok).toBe(true);
    const names = (await api("GET", `/api/v4/projects/${priv.id}/repository/branches`, { token: owner.token })).body.map((b: { name: string }) => b.name);
    expect(names).toEqual(["by-developer", "main"]);

    // A revoked token: 401 again.
    const revoked = await newUser();
    await api("POST", `/api/v4/projects/${priv.id}/members`, { token: owner.token, body: { user_id: revoked.id, access_level: 30 } });
    expect((await lsRemote(priv, revoked.token)).ok).toBe(true);
    expect((await api("DELETE", "/api/v4/personal_access_tokens/self", { token: revoked.token })).status).toBe(204);
    const afterRevoke = await lsRemote(priv, revoked.token);
    expect(afterRevoke.ok).toBe(false);
    expect(afterRevoke.stderr).toMatch(/Authentication failed/);
  });
});

describe("the one write path", () => {
  const setReadOnly = (id: number, readOnly: boolean) => updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :v", values: { ":v": readOnly } });

  it("refuses a push while a storage move holds the repository, with GitLab's message, and changes nothing", async () => {
    const project = await newProject(owner.token);
    const work = dir("read-only");
    await gitOk(["clone", "-q", withToken(project.http_url_to_repo, owner.token), work]);
    const before = (await gitOk(["rev-parse", "HEAD"], work)).stdout.trim();
    await commitFile(work, "late.txt", "late\n");
    await setReadOnly(project.id, true);
    try {
      const refused = await git(["push", "origin", "main"], work);
      expect(refused.ok).toBe(false);
      expect(refused.stderr).toContain(`remote error: ${READ_ONLY}`);
      // Clones and fetches go on meanwhile: a move only stops writes.
      expect((await git(["fetch", "-q", "origin"], work)).ok).toBe(true);
    } finally {
      await setReadOnly(project.id, false);
    }
    const branches = await api("GET", `/api/v4/projects/${project.id}/repository/branches/main`, { token: owner.token });
    expect(branches.body.commit.id).toBe(before);
  });

  it("refuses the pack itself when the move began after git read the refs (between advertisement and push)", async () => {
    const project = await newProject(owner.token);
    const work = dir("read-only-late");
    await gitOk(["clone", "-q", withToken(project.http_url_to_repo, owner.token), work]);
    const before = (await gitOk(["rev-parse", "HEAD"], work)).stdout.trim();
    await commitFile(work, "late.txt", "late\n");
    // git runs pre-push after it read the advertisement and before it sends the pack: the hook
    // waits for the test to mark the repository read-only.
    const gate = join(work, ".git", "gate");
    writeFileSync(join(work, ".git", "hooks", "pre-push"), `#!/bin/sh\ntouch "${gate}.waiting"\nwhile [ ! -f "${gate}" ]; do sleep 0.05; done\n`, { mode: 0o755 });
    const pushing = git(["push", "origin", "main"], work);
    while (!existsSync(`${gate}.waiting`)) await new Promise((r) => setTimeout(r, 20));
    await setReadOnly(project.id, true);
    writeFileSync(gate, "");
    try {
      const refused = await pushing;
      expect(refused.ok).toBe(false);
      expect(refused.stderr).toContain(`remote: ${READ_ONLY}`);
      expect(refused.stderr).toContain(`[remote rejected] main -> main (${READ_ONLY})`);
    } finally {
      await setReadOnly(project.id, false);
    }
    expect((await api("GET", `/api/v4/projects/${project.id}/repository/branches/main`, { token: owner.token })).body.commit.id).toBe(before);
  });

  it("a push racing API commits loses neither: other branches both land, the same branch is a fast-forward or a rejection", async () => {
    const project = await newProject(owner.token);
    const work = dir("race");
    await gitOk(["clone", "-q", withToken(project.http_url_to_repo, owner.token), work]);
    for (let i = 0; i < 3; i++) await commitFile(work, `push-${i}.txt`, `${i}\n`, `pushed ${i}`);
    const pushed = (await gitOk(["rev-parse", "HEAD"], work)).stdout.trim();
    const apiCommits = async (branch: string, n: number) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const res = await api("POST", `/api/v4/projects/${project.id}/repository/commits`, {
          token: owner.token,
          body: { branch, commit_message: `api ${branch} ${i}`, actions: [{ action: "create", file_path: `api-${branch}-${i}.txt`, content: `${i}` }] },
        });
        expect(res.status, res.text).toBe(201);
        ids.push(res.body.id);
      }
      return ids;
    };
    const [push, apiIds] = await Promise.all([git(["push", "origin", "HEAD:refs/heads/pushed", "HEAD:refs/heads/main"], work), apiCommits("main", 4)]);
    const repo = repoPaths("default", "project", project.id)[0]!;
    // Every API commit is on main.
    const mainLog = gitAt(repo, "log", "--format=%H", "main").trim().split("\n");
    for (const id of apiIds) expect(mainLog).toContain(id);
    // The push landed `pushed` in full; main took it if it was first, else git reported the rejection.
    expect(gitAt(repo, "rev-parse", "pushed").trim()).toBe(pushed);
    if (mainLog.includes(pushed)) expect(push.stderr).not.toMatch(/rejected/);
    else expect(push.stderr).toMatch(/rejected|failed to push/);
    fsck(repo);
  });
});

describe("replicas and storage moves", () => {
  it("keeps every replica of a cluster storage in step: same checksum, git fsck clean", async () => {
    const project = await newProject(adminToken(), { repository_storage: "cluster" });
    const work = dir("cluster");
    await gitOk(["clone", "-q", withToken(project.http_url_to_repo, adminToken()), work]);
    // Enough objects for git to keep a pack (over transfer.unpackLimit) as well as loose ones.
    for (let i = 0; i < 3; i++) await commitFile(work, `f${i}.txt`, `${i}\n`);
    await gitOk(["push", "-q", "origin", "main"], work);
    for (let i = 0; i < 120; i++) writeFileSync(join(work, `bulk-${i}.txt`), `bulk ${i} ${"x".repeat(i)}\n`);
    await gitOk(["add", "."], work);
    await gitOk(["commit", "-q", "-m", "bulk"], work);
    await gitOk(["push", "-q", "origin", "main", "main:refs/heads/copy", "main:refs/tags/v1"], work);
    await gitOk(["push", "-q", "origin", "--delete", "copy"], work);
    const sums = await replicaChecksums("cluster", hashedRelativePath("project", project.id));
    expect(sums).toHaveLength(3);
    expect(new Set(sums).size).toBe(1);
    const head = (await gitOk(["rev-parse", "HEAD"], work)).stdout.trim();
    for (const copy of repoPaths("cluster", "project", project.id)) {
      fsck(copy);
      expect(gitAt(copy, "rev-parse", "main").trim()).toBe(head);
      expect(gitAt(copy, "for-each-ref", "--format=%(refname)").trim().split("\n")).toEqual(["refs/heads/main", "refs/tags/v1"]);
    }
  });

  it("serves the same clone URL after a storage move, for fetch and push", async () => {
    const project = await newProject(adminToken(), { repository_storage: "default" });
    const url = withToken(project.http_url_to_repo, adminToken());
    const work = dir("moved");
    await gitOk(["clone", "-q", url, work]);
    await commitFile(work, "before.txt", "before\n", "before the move");
    await gitOk(["push", "-q", "origin", "main"], work);
    const move = await scheduleMove({ baseUrl: baseUrl(), token: adminToken() }, "project", project.id, "secondary");
    expect((await waitForMove({ baseUrl: baseUrl(), token: adminToken() }, "project", move.id)).state).toBe("finished");

    await gitOk(["fetch", "-q", "origin"], work);
    await commitFile(work, "after.txt", "after\n", "after the move");
    await gitOk(["push", "-q", "origin", "main"], work);
    const fresh = dir("moved-fresh");
    await gitOk(["clone", "-q", url, fresh]);
    expect((await gitOk(["log", "--format=%s", "-3"], fresh)).stdout.trim().split("\n")).toEqual(["after the move", "before the move", "Initial commit"]);
    for (const copy of repoPaths("secondary", "project", project.id)) expect(commitSubjects(copy)[0]).toBe("after the move");
  });
});

describe("wikis and snippets", () => {
  it("clones and pushes project and group wikis, personal and project snippets", async () => {
    const project = await newProject(owner.token);
    expect((await api("POST", `/api/v4/projects/${project.id}/wikis`, { token: owner.token, body: { title: "Home", content: "project home" } })).status).toBe(201);
    const projectWiki = dir("project-wiki");
    await gitOk(["clone", "-q", withToken(`${project.web_url}.wiki.git`, owner.token), projectWiki]);
    await commitFile(projectWiki, "Pushed.md", "from git\n");
    await gitOk(["push", "-q", "origin", "main"], projectWiki);
    const page = await api("GET", `/api/v4/projects/${project.id}/wikis/Pushed`, { token: owner.token });
    expect(page).toMatchObject({ status: 200, body: { content: "from git\n", format: "markdown" } });

    const group = await api("POST", "/api/v4/groups", { token: owner.token, body: { name: "Git wiki", path: unique("gw") } });
    expect(group.status, group.text).toBe(201);
    expect((await api("POST", `/api/v4/groups/${group.body.id}/wikis`, { token: owner.token, body: { title: "Start", content: "group start" } })).status).toBe(201);
    const groupWiki = dir("group-wiki");
    await gitOk(["clone", "-q", withToken(`${baseUrl()}/${group.body.full_path}.wiki.git`, owner.token), groupWiki]);
    expect((await gitOk(["show", "HEAD:Start.md"], groupWiki)).stdout).toBe("group start");

    const snippet = await api("POST", "/api/v4/snippets", { token: owner.token, body: { title: "s", visibility: "private", files: [{ file_path: "hello.txt", content: "hello\n" }] } });
    expect(snippet.status, snippet.text).toBe(201);
    expect(snippet.body.http_url_to_repo).toBe(`${baseUrl()}/snippets/${snippet.body.id}.git`);
    const snippetWork = dir("snippet");
    await gitOk(["clone", "-q", withToken(snippet.body.http_url_to_repo, owner.token), snippetWork]);
    await commitFile(snippetWork, "hello.txt", "changed\n");
    await gitOk(["push", "-q", "origin", "main"], snippetWork);
    const raw = await api("GET", `/api/v4/snippets/${snippet.body.id}/files/main/hello.txt/raw`, { token: owner.token });
    expect(raw.text).toBe("changed\n");
    // Another user's private snippet is absent.
    expect((await git(["ls-remote", withToken(snippet.body.http_url_to_repo, (await newUser()).token)])).stderr).toMatch(/not found/);

    const projectSnippet = await api("POST", `/api/v4/projects/${project.id}/snippets`, { token: owner.token, body: { title: "ps", visibility: "private", files: [{ file_path: "p.txt", content: "p\n" }] } });
    expect(projectSnippet.status, projectSnippet.text).toBe(201);
    expect(projectSnippet.body.http_url_to_repo).toBe(`${baseUrl()}/${project.path_with_namespace}/snippets/${projectSnippet.body.id}.git`);
    const projectSnippetWork = dir("project-snippet");
    await gitOk(["clone", "-q", withToken(projectSnippet.body.http_url_to_repo, owner.token), projectSnippetWork]);
    expect((await gitOk(["show", "HEAD:p.txt"], projectSnippetWork)).stdout).toBe("p\n");
  });
});

describe("fetch statistics", () => {
  it("counts each git-upload-pack request of a project's repository per day, not its wiki's; Reporter+ reads them", async () => {
    const project = await newProject(owner.token);
    const stats = (token = owner.token) => api("GET", `/api/v4/projects/${project.id}/statistics`, { token });
    expect((await stats()).body).toEqual({ fetches: { total: 0, days: [] } });
    // Protocol v0: one upload-pack request a clone, one a fetch that brings something.
    const url = withToken(project.http_url_to_repo, owner.token);
    const work = dir("counted");
    await gitOk(["-c", "protocol.version=0", "clone", "-q", url, work]);
    await api("POST", `/api/v4/projects/${project.id}/repository/commits`, { token: owner.token, body: { branch: "main", commit_message: "more", actions: [{ action: "create", file_path: "m", content: "m" }] } });
    await gitOk(["-c", "protocol.version=0", "fetch", "-q", "origin"], work);
    // A fetch with nothing new asks for the refs only; a wiki's clone is the wiki's.
    await gitOk(["-c", "protocol.version=0", "fetch", "-q", "origin"], work);
    expect((await api("POST", `/api/v4/projects/${project.id}/wikis`, { token: owner.token, body: { title: "Home", content: "home" } })).status).toBe(201);
    await gitOk(["-c", "protocol.version=0", "clone", "-q", withToken(`${project.web_url}.wiki.git`, owner.token), dir("wiki")]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await stats()).body).toEqual({ fetches: { total: 2, days: [{ count: 2, date: today }] } });
    // Protocol v2 asks twice (ls-refs, then fetch), and both count, as on GitLab.
    await gitOk(["-c", "protocol.version=2", "clone", "-q", url, dir("v2")]);
    expect((await stats()).body.fetches.total).toBe(4);

    const reporter = await newUser();
    const guest = await newUser();
    await api("POST", `/api/v4/projects/${project.id}/members`, { token: owner.token, body: { user_id: reporter.id, access_level: 20 } });
    await api("POST", `/api/v4/projects/${project.id}/members`, { token: owner.token, body: { user_id: guest.id, access_level: 10 } });
    expect((await stats(reporter.token)).body.fetches.total).toBe(4);
    expect(await stats(guest.token)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await stats((await newUser()).token)).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${project.id}/statistics`)).status).toBe(401);
  });

  it("reports the 30 days up to today, newest first, and lets older days expire", async () => {
    const project = await newProject(owner.token);
    const now = new Date("2024-03-31T12:00:00Z");
    const day = (n: number) => new Date(now.getTime() - n * 86_400_000);
    for (const n of [0, 0, 0, 1, 29, 30, 45]) await recordFetch(project.id, day(n));
    expect(await fetchStatistics(project.id, now)).toEqual({
      fetches: { total: 5, days: [{ count: 3, date: "2024-03-31" }, { count: 1, date: "2024-03-30" }, { count: 1, date: "2024-03-02" }] },
    });
    const item = await getItem<{ expireAt: number }>(`PROJECT#${project.id}`, "FETCHES#2024-03-31");
    expect(item?.expireAt).toBe(Date.parse("2024-05-01T00:00:00Z") / 1000);
  });
});
