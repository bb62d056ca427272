/**
 * A push's refs are fenced with its write lease while git holds their locks: the real `git` runs the
 * reference-transaction hook `fence-hook.ts` writes, which asks the pushing process to renew the
 * lease. A lease that is lost (the fence throws, as the write path's does) leaves the ref where it was.
 */
import { describe, it, expect, afterEach } from "vitest";
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fenceHooks, type FenceHooks } from "../../functions/hosting/git-http/fence-hook.js";

const env = { PATH: process.env.PATH, HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@example.com" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env, encoding: "utf8" }).trim();

let hooks: FenceHooks | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await hooks?.close();
  hooks = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A repository with two commits; `main` at the first. */
function repository() {
  const dir = mkdtempSync(join(tmpdir(), "fence-"));
  dirs.push(dir);
  git(dir, "init", "-q", "-b", "main");
  git(dir, "commit", "-q", "--allow-empty", "-m", "one");
  const first = git(dir, "rev-parse", "HEAD");
  git(dir, "commit", "-q", "--allow-empty", "-m", "two");
  const second = git(dir, "rev-parse", "HEAD");
  git(dir, "update-ref", "refs/heads/main", first);
  return { dir, first, second };
}

/** Asynchronous: the fence answers from this process's event loop while git waits on its hook. */
const updateRef = (dir: string, hooksPath: string, sha: string) =>
  new Promise<{ status: number; stderr: string }>((resolve) =>
    execFile("git", ["-c", `core.hooksPath=${hooksPath}`, "update-ref", "refs/heads/main", sha], { cwd: dir, env, encoding: "utf8" }, (err, _stdout, stderr) =>
      resolve({ status: err ? Number((err as { code?: number }).code ?? 1) || 1 : 0, stderr }),
    ),
  );

describe("the push fence", () => {
  it("lets a ref move while the lease holds, asking once per ref update under its lock", async () => {
    const { dir, second } = repository();
    let asked = 0;
    hooks = await fenceHooks(async () => {
      asked++;
    });
    const out = await updateRef(dir, hooks.hooksPath, second);
    expect(out.status, out.stderr).toBe(0);
    expect(git(dir, "rev-parse", "refs/heads/main")).toBe(second);
    expect(asked).toBe(1);
  });

  it("leaves the ref where it was when the lease is lost, with the write path's reason", async () => {
    const { dir, first, second } = repository();
    hooks = await fenceHooks(async () => {
      throw Object.assign(new Error("lost"), { body: { message: "This write lost its hold on the repository" } });
    });
    const out = await updateRef(dir, hooks.hooksPath, second);
    expect(out.status).not.toBe(0);
    expect(out.stderr).toContain("This write lost its hold on the repository");
    expect(git(dir, "rev-parse", "refs/heads/main")).toBe(first);
  });

});
