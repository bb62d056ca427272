/**
 * A push's refs are fenced with its write lease while git holds their locks: the real `git` runs the
 * reference-transaction hook `fence-hook.ts` writes, which asks the pushing process to renew the
 * lease. A lease that is lost (the fence throws, as the write path's does) leaves the ref where it was.
 * A project's push also runs the pre-receive hook, which hands every ref update (force pushes told
 * apart) to the push check before any ref moves; its refusal declines the whole push.
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

describe("the push check (pre-receive hook)", () => {
  /** A bare repository whose `main` is at `second`, and a clone whose `work` branch rewrites it (a child of `first`). */
  function pushable() {
    const { dir, first, second } = repository();
    git(dir, "update-ref", "refs/heads/main", second);
    const bare = `${dir}.git`;
    dirs.push(bare);
    git(dir, "clone", "-q", "--bare", dir, bare);
    git(dir, "checkout", "-q", "-b", "work", first);
    git(dir, "commit", "-q", "--allow-empty", "-m", "rewritten");
    git(dir, "checkout", "-q", "-b", "onward", second);
    git(dir, "commit", "-q", "--allow-empty", "-m", "onward");
    return { dir, bare, first, second, rewritten: git(dir, "rev-parse", "work"), onward: git(dir, "rev-parse", "onward") };
  }
  const push = (dir: string, bare: string, hooksPath: string, ...refspecs: string[]) =>
    new Promise<{ status: number; stderr: string }>((resolve) =>
      execFile("git", ["push", "--receive-pack", `git -c core.hooksPath=${hooksPath} receive-pack`, bare, ...refspecs], { cwd: dir, env, encoding: "utf8" }, (err, _stdout, stderr) =>
        resolve({ status: err ? 1 : 0, stderr }),
      ),
    );

  it("asks once with every update, telling a force push from a fast-forward, and declines them all on a refusal", async () => {
    const { dir, bare, first, second, rewritten, onward } = pushable();
    const asked: unknown[] = [];
    hooks = await fenceHooks(async () => undefined, async (changes) => {
      asked.push(changes);
      return changes.some((c) => c.forced) ? "You are not allowed to force push code to a protected branch on this project." : undefined;
    });
    const refused = await push(dir, bare, hooks.hooksPath, `+${rewritten}:refs/heads/main`, `${first}:refs/heads/next`);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("remote: GitLab: You are not allowed to force push code to a protected branch on this project.");
    expect(refused.stderr).toContain("(pre-receive hook declined)");
    expect(asked).toEqual([
      [
        { ref: "refs/heads/main", old: second, new: rewritten, forced: true },
        { ref: "refs/heads/next", old: undefined, new: first, forced: false },
      ],
    ]);
    expect(git(bare, "for-each-ref", "--format=%(refname) %(objectname)")).toBe(`refs/heads/main ${second}`);

    const ok = await push(dir, bare, hooks.hooksPath, `${onward}:refs/heads/main`, `${first}:refs/tags/v1`);
    expect(ok.status, ok.stderr).toBe(0);
    expect(asked[1]).toEqual([
      { ref: "refs/heads/main", old: second, new: onward, forced: false },
      { ref: "refs/tags/v1", old: undefined, new: first, forced: false },
    ]);
  });

  it("declines a push it cannot check, in words that give nothing away", async () => {
    const { dir, bare, onward } = pushable();
    hooks = await fenceHooks(async () => undefined, async () => {
      throw new Error("secret internal detail");
    });
    const out = await push(dir, bare, hooks.hooksPath, `${onward}:refs/heads/main`);
    expect(out.status).toBe(1);
    expect(out.stderr).toContain("remote: The push could not be checked. Please try again.");
    expect(out.stderr).not.toContain("secret");
  });
});

describe("fence folders left by a killed push", () => {
  it("are swept once untouched for longer than any push can run; younger ones and other folders stay", async () => {
    const { mkdirSync, writeFileSync, utimesSync, existsSync } = await import("node:fs");
    const { sweepStaleFenceFolders, STALE_FENCE_FOLDER_MS } = await import("../../functions/hosting/git-http/fence-hook.js");
    const root = mkdtempSync(join(tmpdir(), "fence-sweep-"));
    dirs.push(root);
    const now = Date.now();
    const folder = (name: string, ageMs: number) => {
      const path = join(root, name);
      mkdirSync(join(path, "hooks"), { recursive: true });
      writeFileSync(join(path, "hooks", "reference-transaction"), "#!/bin/sh\n");
      const at = (now - ageMs) / 1000;
      utimesSync(path, at, at);
      return path;
    };
    const stale = folder("forgeline-fence-stale", STALE_FENCE_FOLDER_MS + 60_000);
    const live = folder("forgeline-fence-live", 60_000);
    const unrelated = folder("someone-else", STALE_FENCE_FOLDER_MS * 4);
    expect(await sweepStaleFenceFolders({ root, now })).toEqual([stale]);
    expect([existsSync(stale), existsSync(live), existsSync(unrelated)]).toEqual([false, true, true]);
  });
});
