/**
 * `GET /users/:user_id/contributed_projects` (GitLab's projects.md): the projects a user pushed to
 * (commits, files, branches and tags through the API, pushes over Git) or commented on in the last
 * year, as the caller may see them.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { api, adminToken, newUser } from "../support/api.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { contributionKey } from "../../functions/hosting/domain/keys.js";
import { addMember, idsOf, newProject } from "./support.js";

const run = promisify(execFile);
let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "contrib-"));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const contributed = (who: number | string, token?: string, query = "") => api("GET", `/api/v4/users/${who}/contributed_projects${query}`, { token });

describe("GET /users/:user_id/contributed_projects", () => {
  it("lists the projects the user wrote to or commented on, newest first, by id or username", async () => {
    const [owner, dev] = await Promise.all([newUser(), newUser()]);
    const [byCommit, byBranch, byComment, byPush, untouched] = await Promise.all(Array.from({ length: 5 }, () => newProject(owner.token, { initialize_with_readme: true })));
    for (const p of [byCommit, byBranch, byComment, byPush, untouched]) await addMember(owner.token, "projects", p!.id, dev.id, 30);
    const commit = await api("POST", `/api/v4/projects/${byCommit!.id}/repository/commits`, {
      token: dev.token,
      // A branch of their own: a Developer may not push to the protected default branch.
      body: { branch: "dev-work", start_branch: "main", commit_message: "add", actions: [{ action: "create", file_path: "a.txt", content: "a" }] },
    });
    expect(commit.status, commit.text).toBe(201);
    expect((await api("POST", `/api/v4/projects/${byBranch!.id}/repository/branches`, { token: dev.token, body: { branch: "feature", ref: "main" } })).status).toBe(201);
    expect((await api("POST", `/api/v4/projects/${byComment!.id}/repository/commits/main/comments`, { token: dev.token, body: { note: "nice" } })).status).toBe(201);
    // A push over Git.
    const url = new URL((await api("GET", `/api/v4/projects/${byPush!.id}`, { token: dev.token })).body.http_url_to_repo);
    [url.username, url.password] = ["oauth2", dev.token];
    const env = { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "Dev", GIT_AUTHOR_EMAIL: "dev@example.com", GIT_COMMITTER_NAME: "Dev", GIT_COMMITTER_EMAIL: "dev@example.com" };
    const work = join(home, "push");
    await run("git", ["clone", "-q", url.toString(), work], { env });
    writeFileSync(join(work, "b.txt"), "b");
    await run("git", ["add", "b.txt"], { cwd: work, env });
    await run("git", ["commit", "-q", "-m", "b"], { cwd: work, env });
    await run("git", ["push", "-q", "origin", "HEAD:dev-push"], { cwd: work, env });

    const res = await contributed(dev.id, dev.token);
    expect(res.status, res.text).toBe(200);
    const ids = [byCommit!.id, byBranch!.id, byComment!.id, byPush!.id].sort((a, b) => a - b);
    // Newest project first (GitLab's default, `created_at` `desc`).
    expect(idsOf(res.body)).toEqual([...ids].reverse());
    expect(idsOf(res.body)).not.toContain(untouched!.id);
    expect(res.headers.get("x-total")).toBe("4");
    expect(idsOf((await contributed(dev.username, owner.token, "?order_by=id&sort=asc")).body)).toEqual(ids);
    // The owner's own README commits were made at creation, not through these routes: nothing counted.
    expect((await contributed(owner.id, owner.token)).body).toEqual([]);
    const simple = await contributed(dev.id, dev.token, "?simple=true&per_page=1");
    expect(Object.keys(simple.body[0])).not.toContain("visibility");
    expect(simple.headers.get("x-next-page")).toBe("2");
  });

  it("shows only projects the caller may see, hides a private profile's, and forgets contributions older than a year", async () => {
    const [owner, dev, stranger] = await Promise.all([newUser(), newUser(), newUser()]);
    const [hidden, open] = await Promise.all([newProject(owner.token, { initialize_with_readme: true }), newProject(owner.token, { initialize_with_readme: true, visibility: "public" })]);
    for (const p of [hidden, open]) {
      await addMember(owner.token, "projects", p.id, dev.id, 30);
      await api("POST", `/api/v4/projects/${p.id}/repository/tags`, { token: dev.token, body: { tag_name: "v1", ref: "main" } });
    }
    const both = [open.id, hidden.id].sort((a, b) => b - a);
    expect(idsOf((await contributed(dev.id, dev.token)).body)).toEqual(both);
    expect(idsOf((await contributed(dev.id, stranger.token)).body)).toEqual([open.id]);
    expect(idsOf((await contributed(dev.id)).body)).toEqual([open.id]);
    await api("PUT", `/api/v4/users/${dev.id}`, { token: adminToken(), body: { private_profile: true } });
    expect((await contributed(dev.id, stranger.token)).body).toEqual([]);
    expect(idsOf((await contributed(dev.id, adminToken())).body)).toEqual(both);
    const longAgo = new Date(Date.now() - 400 * 86_400_000).toISOString();
    await updateItem({ ...contributionKey(dev.id, hidden.id), update: "SET lastAt = :t", values: { ":t": longAgo } });
    expect(idsOf((await contributed(dev.id, dev.token)).body)).toEqual([open.id]);
    expect(await contributed("nobody_at_all_here", dev.token)).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect(await contributed(dev.id, dev.token, "?order_by=stars")).toMatchObject({ status: 400 });
  });

  it("does not count a push the branch protection refused", async () => {
    const [owner, dev] = await Promise.all([newUser(), newUser()]);
    const project = await newProject(owner.token, { initialize_with_readme: true });
    await addMember(owner.token, "projects", project.id, dev.id, 30);
    const url = new URL((await api("GET", `/api/v4/projects/${project.id}`, { token: dev.token })).body.http_url_to_repo);
    [url.username, url.password] = ["oauth2", dev.token];
    const env = { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "Dev", GIT_AUTHOR_EMAIL: "dev@example.com", GIT_COMMITTER_NAME: "Dev", GIT_COMMITTER_EMAIL: "dev@example.com" };
    const work = join(home, "refused");
    await run("git", ["clone", "-q", url.toString(), work], { env });
    writeFileSync(join(work, "c.txt"), "c");
    await run("git", ["add", "c.txt"], { cwd: work, env });
    await run("git", ["commit", "-q", "-m", "c"], { cwd: work, env });
    // A Developer may not push to the protected default branch: the pre-receive check declines it.
    const push = await run("git", ["push", "-q", "origin", "HEAD:main"], { cwd: work, env }).then(
      () => "",
      (err: { stderr?: string }) => err.stderr ?? "failed",
    );
    expect(push).toContain("You are not allowed to push code to protected branches on this project.");
    expect((await contributed(dev.id, dev.token)).body).toEqual([]);
    // The same commit on a branch of their own goes through, and counts.
    await run("git", ["push", "-q", "origin", "HEAD:dev-own"], { cwd: work, env });
    expect(idsOf((await contributed(dev.id, dev.token)).body)).toEqual([project.id]);
  });
});
