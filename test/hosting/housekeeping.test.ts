/**
 * `POST /projects/:id/housekeeping`: loose refs packed into `packed-refs` on every replica, through
 * the one write path (refused while the repository is read-only for a move), with GitLab's
 * permissions and parameter errors. The git CLI checks the result.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { adminToken, api, newUser, unique } from "../support/api.js";
import { fsck, git, repoPaths } from "../support/git.js";
import { updateItem } from "../../functions/platform/db/table.js";

let owner: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  owner = await newUser();
});

const housekeeping = (id: number, token: string | undefined, body?: unknown) => api("POST", `/api/v4/projects/${id}/housekeeping`, { token, body });
const refsOf = (dir: string) => git(dir, "for-each-ref", "--format=%(objectname) %(refname)");

async function projectWithRefs(token: string, extra: Record<string, unknown> = {}) {
  const created = await api("POST", "/api/v4/projects", { token, body: { name: unique("hk"), initialize_with_readme: true, ...extra } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as number;
  for (const branch of ["feature/a", "feature/b"]) expect((await api("POST", `/api/v4/projects/${id}/repository/branches`, { token, body: { branch, ref: "main" } })).status).toBe(201);
  expect((await api("POST", `/api/v4/projects/${id}/repository/tags`, { token, body: { tag_name: "v1.0", ref: "main", message: "first release" } })).status).toBe(201);
  return { id, storage: created.body.repository_storage as string };
}

describe("project housekeeping", () => {
  it("packs every loose ref into packed-refs, leaving the refs as they were, and later writes still work", async () => {
    const { id } = await projectWithRefs(owner.token);
    const [dir] = repoPaths("default", "project", id);
    const before = refsOf(dir!);
    expect(existsSync(join(dir!, "refs/heads/feature/a"))).toBe(true);

    const res = await housekeeping(id, owner.token);
    expect(res.status).toBe(201);
    expect(res.text).toBe("");

    expect(refsOf(dir!)).toBe(before);
    for (const ref of ["refs/heads/main", "refs/heads/feature/a", "refs/heads/feature/b", "refs/tags/v1.0"]) {
      expect(existsSync(join(dir!, ref)), ref).toBe(false);
      expect(readFileSync(join(dir!, "packed-refs"), "utf8")).toContain(` ${ref}\n`);
    }
    expect(existsSync(join(dir!, "refs/heads/feature")), "an emptied folder goes").toBe(false);
    fsck(dir!);

    // A packed branch moves (a loose ref overrides it) and is deleted (out of packed-refs too).
    const commit = await api("POST", `/api/v4/projects/${id}/repository/commits`, {
      token: owner.token,
      body: { branch: "feature/a", commit_message: "after housekeeping", actions: [{ action: "create", file_path: "new.txt", content: "x" }] },
    });
    expect(commit.status, commit.text).toBe(201);
    expect(git(dir!, "rev-parse", "refs/heads/feature/a").trim()).toBe(commit.body.id);
    expect((await api("DELETE", `/api/v4/projects/${id}/repository/branches/feature%2Fb`, { token: owner.token })).status).toBe(204);
    expect(git(dir!, "for-each-ref", "--format=%(refname)", "refs/heads")).toBe("refs/heads/feature/a\nrefs/heads/main\n");

    // Nothing loose left: a second run packs the new loose ref, and is harmless.
    expect((await housekeeping(id, owner.token, { task: "prune" })).status).toBe(201);
    expect(existsSync(join(dir!, "refs/heads/feature/a"))).toBe(false);
    expect(git(dir!, "rev-parse", "refs/heads/feature/a").trim()).toBe(commit.body.id);
    fsck(dir!);
  });

  it("leaves every replica of a cluster with the same packed refs", async () => {
    const { id } = await projectWithRefs(adminToken(), { repository_storage: "cluster" });
    const replicas = repoPaths("cluster", "project", id);
    const before = refsOf(replicas[0]!);
    expect((await housekeeping(id, adminToken(), { task: "eager" })).status).toBe(201);
    for (const dir of replicas) {
      expect(refsOf(dir)).toBe(before);
      expect(existsSync(join(dir, "refs/heads/main")), dir).toBe(false);
      expect(readFileSync(join(dir, "packed-refs"), "utf8")).toBe(readFileSync(join(replicas[0]!, "packed-refs"), "utf8"));
      fsck(dir);
    }
  });

  it("removes what a killed push left in every replica (git's incoming objects, temporary packs), and nothing else", async () => {
    const { id } = await projectWithRefs(adminToken(), { repository_storage: "cluster" });
    const replicas = repoPaths("cluster", "project", id);
    const before = refsOf(replicas[0]!);
    // As git names them: receive-pack's quarantine holding index-pack's unfinished pack, and a
    // temporary pack file in the pack folder itself.
    const leftovers = replicas.flatMap((dir) => [join(dir, "objects", "tmp_objdir-incoming-Ab12Cd"), join(dir, "objects", "pack", "tmp_pack_Ef34Gh")]);
    for (const dir of replicas) {
      mkdirSync(join(dir, "objects", "tmp_objdir-incoming-Ab12Cd", "pack"), { recursive: true });
      writeFileSync(join(dir, "objects", "tmp_objdir-incoming-Ab12Cd", "pack", "tmp_pack_Xy56Zw"), Buffer.alloc(2048, 1));
      mkdirSync(join(dir, "objects", "pack"), { recursive: true });
      writeFileSync(join(dir, "objects", "pack", "tmp_pack_Ef34Gh"), Buffer.alloc(1024, 2));
    }

    expect((await housekeeping(id, adminToken())).status).toBe(201);
    expect(leftovers.filter((path) => existsSync(path))).toEqual([]);
    for (const dir of replicas) {
      expect(refsOf(dir)).toBe(before);
      fsck(dir);
    }
  });

  it("is refused while the repository is read-only for a move, and changes nothing", async () => {
    const { id } = await projectWithRefs(owner.token);
    const [dir] = repoPaths("default", "project", id);
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :r", values: { ":r": true } });
    try {
      const res = await housekeeping(id, owner.token);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: "The repository is temporarily read-only. Please try again later." });
      expect(existsSync(join(dir!, "refs/heads/main"))).toBe(true);
      expect(existsSync(join(dir!, "packed-refs"))).toBe(false);
    } finally {
      await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :r", values: { ":r": false } });
    }
    expect((await housekeeping(id, owner.token)).status).toBe(201);
  });

  it("needs Maintainer, a token and a known task", async () => {
    const { id } = await projectWithRefs(owner.token);
    const [developer, maintainer, stranger] = [await newUser(), await newUser(), await newUser()];
    for (const [user, access_level] of [[developer, 30], [maintainer, 40]] as const) {
      expect((await api("POST", `/api/v4/projects/${id}/members`, { token: owner.token, body: { user_id: user.id, access_level } })).status).toBe(201);
    }
    expect(await housekeeping(id, undefined)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await housekeeping(id, stranger.token)).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await housekeeping(id, developer.token)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await housekeeping(id, maintainer.token, { task: "aggressive" })).toMatchObject({ status: 400, body: { error: "task does not have a valid value" } });
    // An undeclared parameter is dropped (Grape's `declared(params)`): the default task runs.
    expect((await housekeeping(id, maintainer.token, { tasks: "eager" })).status).toBe(201);
    expect((await housekeeping(id, maintainer.token, { task: "prune" })).status).toBe(201);
  });
});
