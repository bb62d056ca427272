/**
 * Git over HTTP from the Git function's own Lambda bundle (isolated mode: invoked with a function URL
 * event, its streamed answer collected as Lambda's runtime would): clone and push with the git CLI.
 */
import { describe, it, expect, afterAll } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, baseUrl, newUser, unique } from "../support/api.js";

const home = mkdtempSync(join(tmpdir(), "isolated-git-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const git = (args: string[], cwd = home) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "I", GIT_AUTHOR_EMAIL: "i@example.com", GIT_COMMITTER_NAME: "I", GIT_COMMITTER_EMAIL: "i@example.com" },
  });

describe("Git over HTTP in isolated mode", () => {
  it("clones http_url_to_repo and pushes a commit back through the function's bundle", async () => {
    const user = await newUser();
    const created = await api("POST", "/api/v4/projects", { token: user.token, body: { name: unique("iso-git"), initialize_with_readme: true } });
    expect(created.status, created.text).toBe(201);
    // API Gateway's events say https (as on AWS); the local server behind them speaks plain HTTP.
    const url = new URL(new URL(created.body.http_url_to_repo).pathname, baseUrl());
    url.username = "oauth2";
    url.password = user.token;
    const work = join(home, "clone");
    git(["clone", "-q", url.toString(), work]);
    writeFileSync(join(work, "isolated.txt"), "from the bundle\n");
    git(["add", "isolated.txt"], work);
    git(["commit", "-q", "-m", "pushed in isolated mode"], work);
    git(["push", "-q", "origin", "main"], work);
    const commits = await api("GET", `/api/v4/projects/${created.body.id}/repository/commits`, { token: user.token });
    expect(commits.body[0].title).toBe("pushed in isolated mode");
  });
});
