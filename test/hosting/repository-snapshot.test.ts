/**
 * GitLab's repository snapshot (`GET /projects/:id/snapshot`): a tar that unpacks into a repository
 * git accepts as the same one, for administrators only.
 */
import { describe, it, expect } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adminToken, api, baseUrl, newUser, unique } from "../support/api.js";
import { fsck, git, repoPaths } from "../support/git.js";

describe("GET /projects/:id/snapshot", () => {
  it("streams the bare repository as a tar that git reads as the same repository", async () => {
    const owner = await newUser();
    const created = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("snap"), initialize_with_readme: true } });
    const id = created.body.id as number;
    const dir = repoPaths("default", "project", id)[0]!;
    const big = Buffer.alloc(3 << 20, "x"); // bigger than one chunk of the stream
    await api("POST", `/api/v4/projects/${id}/repository/commits`, {
      token: owner.token,
      body: { branch: "feature", start_branch: "main", commit_message: "big", actions: [{ action: "create", file_path: "big.txt", content: big.toString("base64"), encoding: "base64" }] },
    });
    git(dir, "tag", "v1", "main");
    git(dir, "pack-refs", "--all");
    // What a killed push leaves (git's quarantine, a temporary pack) is no part of the repository.
    mkdirSync(join(dir, "objects", "tmp_objdir-incoming-Ab12Cd", "pack"), { recursive: true });
    writeFileSync(join(dir, "objects", "tmp_objdir-incoming-Ab12Cd", "pack", "tmp_pack_Xy34Zw"), "half a pack");
    mkdirSync(join(dir, "objects", "pack"), { recursive: true });
    writeFileSync(join(dir, "objects", "pack", "tmp_idx_Qw56Er"), "half an index");

    const res = await fetch(`${baseUrl()}/api/v4/projects/${id}/snapshot`, { headers: { "Private-Token": adminToken() } });
    expect(res.status).toBe(200);
    expect(Object.fromEntries(["content-type", "content-disposition", "content-transfer-encoding", "cache-control"].map((h) => [h, res.headers.get(h)]))).toEqual({
      "content-type": "application/x-tar",
      "content-disposition": 'attachment; filename="snapshot.tar"',
      "content-transfer-encoding": "binary",
      "cache-control": "private",
    });
    const tar = Buffer.from(await res.arrayBuffer());
    const out = mkdtempSync(join(tmpdir(), "snapshot-"));
    try {
      writeFileSync(join(out, "snapshot.tar"), tar);
      const listed = execFileSync("tar", ["-tf", join(out, "snapshot.tar")], { encoding: "utf8" }).trim().split("\n");
      expect(listed.filter((p) => !p.includes("/"))).toEqual(["HEAD", "packed-refs"]);
      expect(listed.some((p) => p.endsWith(".lock") || p.includes("tmp_"))).toBe(false);
      const copy = join(out, "repo.git");
      execFileSync("mkdir", [copy]);
      execFileSync("tar", ["-xf", join(out, "snapshot.tar"), "-C", copy]);
      fsck(copy);
      const refs = (d: string) => git(d, "for-each-ref", "--format=%(objectname) %(refname)");
      expect(refs(copy)).toBe(refs(dir));
      expect(git(copy, "cat-file", "-s", "feature:big.txt").trim()).toBe(String(big.length));
      expect(git(copy, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }

    // Administrators only; `wiki=true` is the wiki's repository, absent before its first page.
    expect(await api("GET", `/api/v4/projects/${id}/snapshot`, { token: owner.token })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await api("GET", `/api/v4/projects/${id}/snapshot`)).status).toBe(401);
    expect(await api("GET", `/api/v4/projects/${id}/snapshot?wiki=true`, { token: adminToken() })).toMatchObject({ status: 404, body: { message: "404 Repository Not Found" } });
    expect((await api("POST", `/api/v4/projects/${id}/wikis`, { token: owner.token, body: { title: "Home", content: "wiki home" } })).status).toBe(201);
    const wikiTar = await fetch(`${baseUrl()}/api/v4/projects/${id}/snapshot?wiki=true`, { headers: { "Private-Token": adminToken() } });
    expect(wikiTar.status).toBe(200);
    const wikiOut = mkdtempSync(join(tmpdir(), "wiki-snapshot-"));
    try {
      writeFileSync(join(wikiOut, "snapshot.tar"), Buffer.from(await wikiTar.arrayBuffer()));
      const copy = join(wikiOut, "wiki.git");
      execFileSync("mkdir", [copy]);
      execFileSync("tar", ["-xf", join(wikiOut, "snapshot.tar"), "-C", copy]);
      fsck(copy);
      expect(git(copy, "show", "main:Home.md")).toBe("wiki home");
    } finally {
      rmSync(wikiOut, { recursive: true, force: true });
    }
    expect(await api("GET", `/api/v4/projects/${id}/snapshot?wiki=maybe`, { token: adminToken() })).toMatchObject({ status: 400, body: { error: "wiki is invalid" } });
    expect(await api("GET", "/api/v4/projects/999999999/snapshot", { token: adminToken() })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
  });
});
