/**
 * `GET /api/v4/repository_storages/inventory` on a private runtime (every storage holds only this
 * file's repositories): counts per storage and kind, sizes equal to the bytes on disk, admin only.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ownRuntime } from "../support/own-runtime.js";
import { fsck, git, repoPaths } from "../support/git.js";
import { startSimulatedMove } from "../backup/simulated-move.js";
import { LONGEST_STEP_MS, sweepStrays } from "../../functions/inventory/domain/strays.js";
import { putItem } from "../../functions/platform/db/table.js";

let rt: Awaited<ReturnType<typeof ownRuntime>>;
let token: string;
const PATH = "/api/v4/repository_storages/inventory";

async function call(method: string, path: string, body?: unknown, as: string | null = token) {
  const headers: Record<string, string> = {};
  if (as) headers["Private-Token"] = as;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${rt.runtime.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

async function created(method: string, path: string, body: unknown) {
  const res = await call(method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const onlyOn = (storage: string) => call("PUT", "/api/v4/application/settings", { repository_storages_weighted: { default: 0, secondary: 0, cluster: 0, [storage]: 100 } });

/** Bytes of the regular files below a directory, walked independently of the service's code. */
function bytesOnDisk(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) total += e.isDirectory() ? bytesOnDisk(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return total;
}

const repos: Array<{ storage: string; kind: "project" | "project-wiki" | "snippet" | "group-wiki"; id: number }> = [];

beforeAll(async () => {
  rt = await ownRuntime();
  token = rt.runtime.bootstrap.token!;
  await onlyOn("secondary");
  for (const name of ["inv-a", "inv-b"]) repos.push({ storage: "secondary", kind: "project", id: (await created("POST", "/api/v4/projects", { name, initialize_with_readme: true })).id });
  // A project's wiki is a repository of its own beside the project's, counted apart.
  const withWiki = repos.at(-1)!.id;
  await created("POST", `/api/v4/projects/${withWiki}/wikis`, { title: "Home", content: "wiki ".repeat(500) });
  repos.push({ storage: "secondary", kind: "project-wiki", id: withWiki });
  repos.push({ storage: "secondary", kind: "snippet", id: (await created("POST", "/api/v4/snippets", { title: "s", files: [{ file_path: "a.txt", content: "x".repeat(5000) }] })).id });
  await onlyOn("cluster");
  repos.push({ storage: "cluster", kind: "project", id: (await created("POST", "/api/v4/projects", { name: "inv-c", initialize_with_readme: true })).id });
  const wikiGroup = await created("POST", "/api/v4/groups", { name: "Inv", path: "inv" });
  await created("POST", `/api/v4/groups/${wikiGroup.id}/wikis`, { title: "Home", content: "hello" });
  repos.push({ storage: "cluster", kind: "group-wiki", id: wikiGroup.id });
  await onlyOn("default");
  repos.push({ storage: "default", kind: "snippet", id: (await created("POST", "/api/v4/snippets", { title: "t", files: [{ file_path: "b.txt", content: "y" }] })).id });
  await created("POST", "/api/v4/groups", { name: "No wiki", path: "no-wiki" }); // a group without a wiki has no repository
}, 120_000);

afterAll(async () => rt?.stop());

describe("GET /api/v4/repository_storages/inventory", () => {
  it("reports, per configured storage, the count and size of each kind of repository", async () => {
    const res = await call("GET", PATH);
    expect(res.status).toBe(200);
    expect(res.body.map((s: { name: string }) => s.name)).toEqual(["default", "secondary", "cluster"]);
    const field = { project: "projects", "project-wiki": "project_wikis", snippet: "snippets", "group-wiki": "group_wikis" } as const;
    for (const storage of res.body) {
      expect(storage.kind).toBe(storage.name === "cluster" ? "cluster" : "local");
      expect(storage.replicas).toBe(storage.name === "cluster" ? 3 : 1);
      for (const kind of ["project", "project-wiki", "snippet", "group-wiki"] as const) {
        const mine = repos.filter((r) => r.storage === storage.name && r.kind === kind);
        const size = mine.reduce((n, r) => n + bytesOnDisk(repoPaths(r.storage, r.kind, r.id)[0]!), 0);
        expect(storage[field[kind]], `${storage.name} ${kind}`).toEqual({ count: mine.length, size_bytes: size });
        if (mine.length) expect(size).toBeGreaterThan(0);
      }
    }
  });

  it("follows a repository that moves to another storage", async () => {
    const project = repos.find((r) => r.kind === "project" && r.storage === "cluster")!;
    await (await startSimulatedMove(project.id, "default")).done;
    const byName = Object.fromEntries((await call("GET", PATH)).body.map((s: { name: string }) => [s.name, s]));
    expect(byName.cluster.projects).toEqual({ count: 0, size_bytes: 0 });
    expect(byName.default.projects.count).toBe(1);
    project.storage = "default";
  });

  it("is for administrators only: 401 without a token, 403 for other users", async () => {
    expect((await call("GET", PATH, undefined, null)).status).toBe(401);
    const user = await created("POST", "/api/v4/users", { username: "inv_user", name: "Inv", email: "inv@example.com" });
    const plain = await created("POST", `/api/v4/users/${user.id}/personal_access_tokens`, { name: "t", scopes: ["api"] });
    const denied = await call("GET", PATH, undefined, plain.token);
    expect(denied).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    const readOnlyAdmin = await created("POST", `/api/v4/users/1/personal_access_tokens`, { name: "ro", scopes: ["read_api"] });
    expect((await call("GET", PATH, undefined, readOnlyAdmin.token)).status).toBe(200);
  });

  it("reports the stray temporary folders a killed writer left, and the sweep removes those whose owner is gone", async () => {
    const project = repos.find((r) => r.kind === "project" && r.storage === "secondary")!;
    const [primary] = repoPaths("secondary", "project", project.id);
    const stray = (owner: string, suffix = "") => {
      const dir = `${primary}.tmp_forgeline_${owner}_0a1b2c${suffix}`;
      mkdirSync(join(dir, "objects"), { recursive: true });
      writeFileSync(join(dir, "objects", "pack"), "x".repeat(1000));
      return dir;
    };
    const ended = stray("mv-project-900", ".deleting");
    const running = stray("mv-project-901");
    const writer = stray("wr-0f0e");
    // Move 901 has not ended: its copy may still be in use.
    await putItem({ pk: "MOVE#project#901", sk: "MOVE", id: 901, kind: "project", state: "started" });
    const before = Object.fromEntries((await call("GET", PATH)).body.map((s: { name: string }) => [s.name, s]));
    expect(before.secondary.stray_folders).toEqual({ count: 3, size_bytes: 3000 });
    expect(before.cluster.stray_folders).toEqual({ count: 0, size_bytes: 0 });

    // The scheduled sweep leaves what is younger than twice the longest step, then what a running move owns.
    expect(await sweepStrays({ minAgeMs: 2 * LONGEST_STEP_MS })).toMatchObject({ removed: 0, kept: 3 });
    expect(await sweepStrays({ minAgeMs: 2 * LONGEST_STEP_MS, now: Date.now() + 3 * LONGEST_STEP_MS })).toMatchObject({ removed: 2, kept: 1 });
    expect([existsSync(ended), existsSync(running), existsSync(writer)]).toEqual([false, true, false]);
    // At the local runtime's start nothing runs: everything goes.
    expect(await sweepStrays({ minAgeMs: 0 })).toMatchObject({ removed: 1, kept: 0 });
    const after = Object.fromEntries((await call("GET", PATH)).body.map((s: { name: string }) => [s.name, s]));
    expect(after.secondary.stray_folders).toEqual({ count: 0, size_bytes: 0 });
    expect(existsSync(primary!)).toBe(true);
  });

  it("reports what killed pushes left inside repositories (git's incoming objects, temporary packs) with their bytes, and the sweep removes it by age", async () => {
    const project = repos.find((r) => r.kind === "project" && r.storage === "secondary")!;
    const [primary] = repoPaths("secondary", "project", project.id);
    const snippet = repos.find((r) => r.kind === "snippet" && r.storage === "default")!;
    const [snippetRepo] = repoPaths("default", "snippet", snippet.id);
    const refsBefore = git(primary!, "for-each-ref");
    // As git names them: receive-pack's quarantine with index-pack's pack being written, and a
    // temporary index and pack of git's in the pack folder itself.
    const quarantine = join(primary!, "objects", "tmp_objdir-incoming-Ab12Cd");
    mkdirSync(join(quarantine, "pack"), { recursive: true });
    writeFileSync(join(quarantine, "pack", "tmp_pack_Xy34Zw"), Buffer.alloc(4096, 1));
    writeFileSync(join(quarantine, "pack", "tmp_idx_Qw56Er"), Buffer.alloc(1000, 2));
    const tempPack = join(snippetRepo!, "objects", "pack", "tmp_pack_Ty78Ui");
    mkdirSync(join(snippetRepo!, "objects", "pack"), { recursive: true });
    writeFileSync(tempPack, Buffer.alloc(3000, 3));

    const before = Object.fromEntries((await call("GET", PATH)).body.map((s: { name: string }) => [s.name, s]));
    expect(before.secondary.git_leftovers).toEqual({ count: 1, size_bytes: 5096 });
    expect(before.default.git_leftovers).toEqual({ count: 1, size_bytes: 3000 });
    expect(before.cluster.git_leftovers).toEqual({ count: 0, size_bytes: 0 });
    expect(before.secondary.stray_folders).toEqual({ count: 0, size_bytes: 0 });

    // On AWS only what nothing touched for twice Lambda's limit: no push runs that long.
    expect(await sweepStrays({ minAgeMs: 2 * LONGEST_STEP_MS })).toMatchObject({ gitLeftoversRemoved: 0, gitLeftoversKept: 2 });
    expect([existsSync(quarantine), existsSync(tempPack)]).toEqual([true, true]);
    expect(await sweepStrays({ minAgeMs: 2 * LONGEST_STEP_MS, now: Date.now() + 3 * LONGEST_STEP_MS })).toMatchObject({ gitLeftoversRemoved: 2, gitLeftoversKept: 0 });
    expect([existsSync(quarantine), existsSync(tempPack)]).toEqual([false, false]);
    const after = Object.fromEntries((await call("GET", PATH)).body.map((s: { name: string }) => [s.name, s]));
    expect(after.secondary.git_leftovers).toEqual({ count: 0, size_bytes: 0 });
    expect(after.default.git_leftovers).toEqual({ count: 0, size_bytes: 0 });
    // The repositories themselves are untouched.
    expect(git(primary!, "for-each-ref")).toBe(refsBefore);
    fsck(primary!);
    fsck(snippetRepo!);
  });
});
