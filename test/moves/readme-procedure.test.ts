/** Runs docs/operators.md's "Emptying a storage" procedure verbatim (bash, curl, npm run moves) on a runtime of its own. */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { startIsolatedRuntime, type IsolatedRuntime } from "./isolated-runtime.js";
import { commit, newGroupWithWiki, newProject, newSnippet } from "./support.js";
import { fsck, repoPaths } from "../support/git.js";
import { codeBlocks, readDoc, section } from "../docs/support.js";

let iso: IsolatedRuntime;
beforeAll(async () => {
  iso = await startIsolatedRuntime();
});
afterAll(async () => iso?.stop());

/**
 * Runs one line with bash, asynchronously: the runtime serving it lives in this process, so a
 * synchronous spawn would block the very server the command talks to.
 */
function sh(line: string, env: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile("bash", ["-c", line], { env, cwd: resolve(import.meta.dirname, "../.."), maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      done({ status: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

function procedure(): string[] {
  const block = codeBlocks(section(readDoc("docs/operators.md"), "Emptying a storage")).find((b) => b.language === "bash")!.code;
  return block.replace(/\\\n\s*/g, "").split("\n").filter((l) => l.trim() && !l.startsWith("export TOKEN"));
}

describe("docs/operators.md: moving every repository off a storage", () => {
  it("works verbatim and leaves nothing on the old storage", async () => {
    const projects = await Promise.all([1, 2, 3].map(() => newProject(iso)));
    for (const p of projects) expect((await commit(iso, p.id, "history")).status).toBe(201);
    const snippets = await Promise.all([1, 2].map(() => newSnippet(iso)));
    const groups = await Promise.all([1, 2].map(() => newGroupWithWiki(iso)));

    const env = { ...process.env, TOKEN: iso.token, API: `${iso.baseUrl}/api/v4`, FORGELINE_URL: iso.baseUrl, FORGELINE_TOKEN: iso.token };
    const lines = procedure();
    expect(lines).toHaveLength(4);
    const [weights, schedule, listOld, check] = lines as [string, string, string, string];
    expect(JSON.parse((await sh(weights, env)).stdout).repository_storages_weighted).toMatchObject({ cluster: 100, default: 0 });
    const scheduled = await sh(schedule, env);
    expect(scheduled.status, scheduled.stderr).toBe(0);
    expect(scheduled.stdout).toMatch(/projects\s+\[#+\] 3\/3\s+finished 3/);
    expect(JSON.parse((await sh(listOld, env)).stdout)).toEqual([]);
    const checked = await sh(check, env);
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);

    for (const p of projects) for (const dir of repoPaths("cluster", "project", p.id)) fsck(dir);
    for (const s of snippets) for (const dir of repoPaths("cluster", "snippet", s.id)) fsck(dir);
    for (const g of groups) for (const dir of repoPaths("cluster", "group-wiki", g.id)) fsck(dir);
  }, 180_000);
});
