/**
 * Protected branches and tags over Git HTTP, driven by the real `git` CLI: a new project's default
 * branch is protected as GitLab protects it (Maintainers push, nobody force-pushes), pushes are
 * refused in GitLab's words (`remote: GitLab: …`, the whole push declined by the pre-receive hook)
 * and nothing moves; wildcard rules, force pushes a rule allows, deletions (API only), protected
 * tags; unprotecting lets the same push through.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { api, newUser, unique } from "../support/api.js";
import { projectRoles, type User } from "./support.js";

const run = promisify(execFile);
let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "git-protected-"));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** git with no user or system configuration and no prompts; `ok: false` when it exits non-zero. */
async function git(args: string[], cwd = home): Promise<{ ok: boolean; stderr: string }> {
  const env = { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "Pusher", GIT_AUTHOR_EMAIL: "pusher@example.com", GIT_COMMITTER_NAME: "Pusher", GIT_COMMITTER_EMAIL: "pusher@example.com" };
  try {
    const { stderr } = await run("git", args, { cwd, env });
    return { ok: true, stderr };
  } catch (err) {
    return { ok: false, stderr: (err as { stderr?: string }).stderr ?? "" };
  }
}

async function gitOk(args: string[], cwd = home) {
  const result = await git(args, cwd);
  expect(result.ok, `git ${args.join(" ")}: ${result.stderr}`).toBe(true);
  return result;
}

/** A push GitLab refuses: its sentence as a `remote:` line, and every ref of the push declined. */
async function refused(args: string[], cwd: string, why: string) {
  const result = await git(args, cwd);
  expect(result.ok, result.stderr).toBe(false);
  expect(result.stderr).toContain(`remote: GitLab: ${why}`);
  expect(result.stderr).toMatch(/\[remote rejected\] .* \(pre-receive hook declined\)/);
  return result.stderr;
}

async function clone(project: { http_url_to_repo: string }, user: User) {
  const url = new URL(project.http_url_to_repo);
  [url.username, url.password] = ["oauth2", user.token];
  const work = join(home, unique("work"));
  await gitOk(["clone", "-q", url.toString(), work]);
  return work;
}

async function commitFile(work: string, file: string) {
  writeFileSync(join(work, file), `${file}\n`);
  await gitOk(["add", file], work);
  await gitOk(["commit", "-q", "-m", `add ${file}`], work);
}

const branchHead = async (id: number, token: string, branch: string) => (await api("GET", `/api/v4/projects/${id}/repository/branches/${encodeURIComponent(branch)}`, { token })).body?.commit?.id;

let owner: User;
let roles: Awaited<ReturnType<typeof projectRoles>>;
let project: { id: number; http_url_to_repo: string };

beforeAll(async () => {
  owner = await newUser();
  const created = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("protected"), initialize_with_readme: true } });
  expect(created.status, created.text).toBe(201);
  project = created.body;
  roles = await projectRoles(owner.token, project.id);
});

describe("the default branch, protected as GitLab protects it", () => {
  it("refuses a force push and a Developer's push with GitLab's messages, takes a Maintainer's; unprotected, all go through", async () => {
    const main = await branchHead(project.id, owner.token, "main");

    // A Maintainer's force push: refused, whatever their role, and main stays where it was.
    const maintainerWork = await clone(project, roles.maintainer);
    await gitOk(["commit", "-q", "--amend", "-m", "rewritten"], maintainerWork);
    await refused(["push", "-q", "--force", "origin", "main"], maintainerWork, "You are not allowed to force push code to a protected branch on this project.");
    expect(await branchHead(project.id, owner.token, "main")).toBe(main);

    // A Developer's fast-forward: refused (Maintainers push).
    const developerWork = await clone(project, roles.developer);
    await commitFile(developerWork, "dev.txt");
    await refused(["push", "-q", "origin", "main"], developerWork, "You are not allowed to push code to protected branches on this project.");
    expect(await branchHead(project.id, owner.token, "main")).toBe(main);

    // …and the whole push is declined: the unprotected branch pushed with it is not created either.
    await refused(["push", "-q", "origin", "main", "HEAD:refs/heads/dev-feature"], developerWork, "You are not allowed to push code to protected branches on this project.");
    expect(await branchHead(project.id, owner.token, "dev-feature")).toBeUndefined();
    // Alone, an unprotected branch is the Developer's to push.
    await gitOk(["push", "-q", "origin", "HEAD:refs/heads/dev-feature"], developerWork);

    // A Maintainer's fast-forward: taken.
    await gitOk(["reset", "-q", "--hard", "origin/main"], maintainerWork);
    await commitFile(maintainerWork, "maintainer.txt");
    await gitOk(["push", "-q", "origin", "main"], maintainerWork);
    const advanced = await branchHead(project.id, owner.token, "main");
    expect(advanced).not.toBe(main);

    // The branch API says the same.
    const shown = await api("GET", `/api/v4/projects/${project.id}/repository/branches/main`, { token: roles.developer.token });
    expect(shown.body).toMatchObject({ protected: true, developers_can_push: false, developers_can_merge: false, can_push: false });
    expect((await api("GET", `/api/v4/projects/${project.id}/repository/branches/main`, { token: roles.maintainer.token })).body).toMatchObject({ can_push: true });

    // Unprotected (by a Maintainer), the Developer's push and a force push go through.
    expect((await api("DELETE", `/api/v4/projects/${project.id}/protected_branches/main`, { token: roles.maintainer.token })).status).toBe(204);
    await gitOk(["pull", "-q", "--rebase", "origin", "main"], developerWork);
    await gitOk(["push", "-q", "origin", "main"], developerWork);
    await gitOk(["reset", "-q", "--hard", "HEAD~1"], developerWork);
    await commitFile(developerWork, "forced.txt");
    await gitOk(["push", "-q", "--force", "origin", "main"], developerWork);
    expect((await api("GET", `/api/v4/projects/${project.id}/repository/branches/main`, { token: roles.developer.token })).body).toMatchObject({ protected: false, can_push: true });

    // Protected again, with force pushes allowed: a Maintainer's force push is taken.
    const again = await api("POST", `/api/v4/projects/${project.id}/protected_branches`, { token: roles.maintainer.token, body: { name: "main", allow_force_push: true } });
    expect(again.status, again.text).toBe(201);
    await gitOk(["fetch", "-q", "origin"], maintainerWork);
    await gitOk(["reset", "-q", "--hard", "origin/main"], maintainerWork);
    await gitOk(["commit", "-q", "--amend", "-m", "amended by a maintainer"], maintainerWork);
    await gitOk(["push", "-q", "--force", "origin", "main"], maintainerWork);
  });

  it("refuses deleting the default branch by a push, whatever protects it", async () => {
    const work = await clone(project, roles.owner);
    await refused(["push", "-q", "origin", "--delete", "main"], work, "The default branch of a project cannot be deleted.");
  });
});

describe("wildcard rules", () => {
  it("protects every matching branch: who may push, force pushes, deletions only through the API", async () => {
    const created = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("wild"), initialize_with_readme: true } });
    const p = created.body as { id: number; http_url_to_repo: string };
    const team = await projectRoles(owner.token, p.id);
    const rule = (body: Record<string, unknown>) => api("POST", `/api/v4/projects/${p.id}/protected_branches`, { token: owner.token, body });
    expect((await rule({ name: "release/*" })).status).toBe(201);
    expect((await rule({ name: "*-stable", push_access_level: 30, allow_force_push: true })).status).toBe(201);

    const dev = await clone(p, team.developer);
    await refused(["push", "-q", "origin", "HEAD:refs/heads/release/1.0"], dev, "You are not allowed to create protected branches on this project.");
    await gitOk(["push", "-q", "origin", "HEAD:refs/heads/1-stable"], dev);
    await commitFile(dev, "one.txt");
    await gitOk(["push", "-q", "origin", "HEAD:refs/heads/1-stable"], dev);
    // `*-stable` lets those who push force-push.
    await gitOk(["reset", "-q", "--hard", "HEAD~1"], dev);
    await commitFile(dev, "other.txt");
    await gitOk(["push", "-q", "--force", "origin", "HEAD:refs/heads/1-stable"], dev);

    // A branch matching two rules gets the most permissive of each: push from `*-stable`, force push too.
    expect((await rule({ name: "release/*-stable" })).status).toBe(201);
    await gitOk(["push", "-q", "origin", "HEAD:refs/heads/release/2-stable"], dev);

    const maintainer = await clone(p, team.maintainer);
    await gitOk(["push", "-q", "origin", "HEAD:refs/heads/release/1.0"], maintainer);
    // Nobody deletes a protected branch with git; Maintainers do through the API.
    await refused(["push", "-q", "origin", "--delete", "release/1.0"], maintainer, "You can only delete protected branches using the web interface.");
    await refused(["push", "-q", "origin", "--delete", "1-stable"], dev, "You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.");
    expect(await api("DELETE", `/api/v4/projects/${p.id}/repository/branches/${encodeURIComponent("release/1.0")}`, { token: team.developer.token })).toMatchObject({
      status: 400,
      body: { message: "You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch." },
    });
    expect((await api("DELETE", `/api/v4/projects/${p.id}/repository/branches/${encodeURIComponent("release/1.0")}`, { token: team.maintainer.token })).status).toBe(204);
    expect(await branchHead(p.id, owner.token, "release/1.0")).toBeUndefined();
  });
});

describe("protected tags", () => {
  it("lets only the allowed create a matching tag, never moves it, and deletes it only through the API", async () => {
    const created = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("tags"), initialize_with_readme: true } });
    const p = created.body as { id: number; http_url_to_repo: string };
    const team = await projectRoles(owner.token, p.id);
    expect((await api("POST", `/api/v4/projects/${p.id}/protected_tags`, { token: owner.token, body: { name: "v*" } })).status).toBe(201);

    const dev = await clone(p, team.developer);
    await gitOk(["tag", "v1.0"], dev);
    await refused(["push", "-q", "origin", "v1.0"], dev, "You are not allowed to create this tag as it is protected.");
    await gitOk(["tag", "nightly"], dev);
    await gitOk(["push", "-q", "origin", "nightly"], dev);

    const maintainer = await clone(p, team.maintainer);
    await gitOk(["tag", "v1.0"], maintainer);
    await gitOk(["push", "-q", "origin", "v1.0"], maintainer);
    await commitFile(maintainer, "later.txt");
    await gitOk(["tag", "-f", "v1.0"], maintainer);
    await refused(["push", "-q", "--force", "origin", "v1.0"], maintainer, "Protected tags cannot be updated.");
    await refused(["push", "-q", "origin", "--delete", "v1.0"], maintainer, "You can only delete protected tags using the web interface.");
    await refused(["push", "-q", "origin", "--delete", "v1.0"], dev, "You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.");

    const tag = await api("GET", `/api/v4/projects/${p.id}/repository/tags/v1.0`, { token: team.developer.token });
    expect(tag.body).toMatchObject({ name: "v1.0", protected: true });
    expect((await api("DELETE", `/api/v4/projects/${p.id}/repository/tags/v1.0`, { token: team.developer.token })).status).toBe(403);
    expect((await api("DELETE", `/api/v4/projects/${p.id}/repository/tags/v1.0`, { token: team.maintainer.token })).status).toBe(204);

    // Unprotected, the Developer's tag goes through.
    expect((await api("DELETE", `/api/v4/projects/${p.id}/protected_tags/${encodeURIComponent("v*")}`, { token: owner.token })).status).toBe(204);
    await gitOk(["push", "-q", "origin", "v1.0"], dev);
  });
});

describe("an empty project", () => {
  it("takes its first push from a Maintainer, and from a Developer only under 'fully protected after initial push'", async () => {
    const group = await api("POST", "/api/v4/groups", { token: owner.token, body: { name: unique("Team"), path: unique("team"), default_branch_protection: 4 } });
    expect(group.status, group.text).toBe(201);
    const newEmpty = async () => {
      const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("empty"), namespace_id: group.body.id } });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: number; http_url_to_repo: string };
    };
    const first = await newEmpty();
    const team = await projectRoles(owner.token, first.id);
    const work = join(home, unique("fresh"));
    await gitOk(["init", "-q", "-b", "main", work]);
    await commitFile(work, "first.txt");
    const url = (p: { http_url_to_repo: string }, user: User) => Object.assign(new URL(p.http_url_to_repo), { username: "oauth2", password: user.token }).toString();
    // The Developer's initial push is allowed; the next one to the protected branch is not.
    await gitOk(["push", "-q", url(first, team.developer), "main"], work);
    await commitFile(work, "second.txt");
    await refused(["push", "-q", url(first, team.developer), "main"], work, "You are not allowed to push code to protected branches on this project.");

    // Fully protected (the group says so now): a Developer cannot push the first commit, a Maintainer can.
    expect((await api("PUT", `/api/v4/groups/${group.body.id}`, { token: owner.token, body: { default_branch_protection: 2 } })).status).toBe(200);
    const second = await newEmpty();
    const team2 = await projectRoles(owner.token, second.id);
    await refused(["push", "-q", url(second, team2.developer), "main"], work, "You are not allowed to push code to protected branches on this project.");
    await gitOk(["push", "-q", url(second, team2.maintainer), "main"], work);
  });
});
