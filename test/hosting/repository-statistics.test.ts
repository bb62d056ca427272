/**
 * Repository sizes recorded at write time (`functions/hosting/domain/repository-size.ts`) and
 * GitLab's project `statistics`: the size on the container item is the repository's bytes on disk
 * after API commits, after a `git push` over HTTP and after a storage move (same bytes, new storage),
 * and `GET /projects/:id?statistics=true` shows it to Reporters and up.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { adminToken, api, newUser, unique } from "../support/api.js";
import { repoPaths } from "../support/git.js";
import { getItem } from "../../functions/platform/db/table.js";
import { scheduleMove, waitForMove } from "../moves/support.js";

const run = promisify(execFile);
let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "statistics-"));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function bytesOnDisk(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) total += e.isDirectory() ? bytesOnDisk(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return total;
}

const recorded = async (id: number) => (await getItem<{ repositorySize?: number; wikiSize?: number; storage: string }>(`PROJECT#${id}`, "PROJECT"))!;

async function commitBytes(token: string, id: number, kib: number) {
  const res = await api("POST", `/api/v4/projects/${id}/repository/commits`, {
    token,
    body: { branch: "main", commit_message: "data", actions: [{ action: "create", file_path: `${unique("f")}.bin`, content: randomBytes(kib * 1024).toString("base64"), encoding: "base64" }] },
  });
  expect(res.status, res.text).toBe(201);
}

describe("repository sizes recorded at write time", () => {
  it("follow API commits, a git push and a storage move, and are GitLab's statistics", async () => {
    const owner = await newUser();
    const project = (await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("stats"), initialize_with_readme: true } })).body;
    const onDisk = async () => bytesOnDisk(repoPaths((await recorded(project.id)).storage, "project", project.id)[0]!);

    const created = await recorded(project.id);
    expect(created.repositorySize).toBe(await onDisk());
    await commitBytes(owner.token, project.id, 64);
    const afterCommit = await recorded(project.id);
    expect(afterCommit.repositorySize).toBe(await onDisk());
    expect(afterCommit.repositorySize! - created.repositorySize!).toBeGreaterThan(64 * 1024);

    // A wiki page: the project's wiki size, beside the repository's.
    expect((await api("POST", `/api/v4/projects/${project.id}/wikis`, { token: owner.token, body: { title: "Home", content: "hello" } })).status).toBe(201);
    const withWiki = await recorded(project.id);
    expect(withWiki.wikiSize).toBe(bytesOnDisk(repoPaths(withWiki.storage, "project-wiki", project.id)[0]!));
    expect(withWiki.wikiSize).toBeGreaterThan(0);

    // A push over HTTP goes through the same write path.
    const env = { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "P", GIT_AUTHOR_EMAIL: "p@example.com", GIT_COMMITTER_NAME: "P", GIT_COMMITTER_EMAIL: "p@example.com" };
    const url = new URL(project.http_url_to_repo as string);
    url.username = "oauth2";
    url.password = owner.token;
    const work = join(home, unique("clone"));
    await run("git", ["clone", "-q", url.href, work], { env });
    writeFileSync(join(work, "pushed.bin"), randomBytes(48 * 1024));
    await run("git", ["add", "pushed.bin"], { cwd: work, env });
    await run("git", ["commit", "-q", "-m", "pushed"], { cwd: work, env });
    await run("git", ["push", "-q", "origin", "HEAD:main"], { cwd: work, env });
    const afterPush = await recorded(project.id);
    expect(afterPush.repositorySize).toBe(await onDisk());
    expect(afterPush.repositorySize! - afterCommit.repositorySize!).toBeGreaterThan(48 * 1024);

    // GitLab's statistics: Reporters and up (and administrators); not for Guests, not without asking.
    const stats = await api("GET", `/api/v4/projects/${project.id}?statistics=true`, { token: owner.token });
    expect(stats.body.statistics).toEqual({
      storage_size: afterPush.repositorySize! + afterPush.wikiSize!,
      repository_size: afterPush.repositorySize,
      wiki_size: afterPush.wikiSize,
      lfs_objects_size: 0,
      job_artifacts_size: 0,
      pipeline_artifacts_size: 0,
      packages_size: 0,
      snippets_size: 0,
      uploads_size: 0,
      container_registry_size: 0,
    });
    expect((await api("GET", `/api/v4/projects/${project.id}`, { token: owner.token })).body.statistics).toBeUndefined();
    const guest = await newUser();
    expect((await api("POST", `/api/v4/projects/${project.id}/members`, { token: owner.token, body: { user_id: guest.id, access_level: 10 } })).status).toBe(201);
    const asGuest = await api("GET", `/api/v4/projects/${project.id}?statistics=true`, { token: guest.token });
    expect(asGuest.status).toBe(200);
    expect(asGuest.body.statistics).toBeUndefined();
    expect((await api("GET", `/api/v4/projects/${project.id}?statistics=maybe`, { token: owner.token })).status).toBe(400);
    const listed = await api("GET", `/api/v4/projects?statistics=true&search=${encodeURIComponent(project.name)}`, { token: adminToken() });
    expect(listed.body.map((p: { statistics: { repository_size: number } }) => p.statistics.repository_size)).toEqual([afterPush.repositorySize]);

    // A storage move copies the bytes: the same size, on the new storage.
    const destination = afterPush.storage === "secondary" ? "default" : "secondary";
    const move = await scheduleMove({ baseUrl: (await import("../support/api.js")).baseUrl(), token: adminToken() }, "project", project.id, destination);
    expect((await waitForMove({ baseUrl: (await import("../support/api.js")).baseUrl(), token: adminToken() }, "project", move.id)).state).toBe("finished");
    const moved = await recorded(project.id);
    expect(moved.storage).toBe(destination);
    expect([moved.repositorySize, moved.wikiSize]).toEqual([afterPush.repositorySize, afterPush.wikiSize]);
    expect(moved.repositorySize).toBe(await onDisk());
  });

  it("are recorded with a new project's item, empty or forked, so nothing has to be measured later", async () => {
    const owner = await newUser();
    const empty = (await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("empty") } })).body;
    const emptyItem = await recorded(empty.id);
    expect(emptyItem.repositorySize).toBe(bytesOnDisk(repoPaths(emptyItem.storage, "project", empty.id)[0]!));
    const source = (await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("source"), initialize_with_readme: true } })).body;
    await commitBytes(owner.token, source.id, 32);
    const fork = await api("POST", `/api/v4/projects/${source.id}/fork`, { token: owner.token, body: { path: unique("fork"), name: unique("fork") } });
    expect(fork.status, fork.text).toBe(201);
    const forkItem = await recorded(fork.body.id);
    expect(forkItem.repositorySize).toBe(bytesOnDisk(repoPaths(forkItem.storage, "project", fork.body.id)[0]!));
    expect(forkItem.repositorySize).toBeGreaterThan(32 * 1024);
  });
});
