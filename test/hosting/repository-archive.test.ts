/**
 * GitLab's repository archives (`GET /projects/:id/repository/archive[.format]`): every format is
 * checked with the real tools (tar, gzip, bzip2, unzip) and unpacks to what `git archive` gives for
 * the same commit; the producer holds a bounded number of bytes however slowly the reader reads.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, baseUrl, newUser, unique } from "../support/api.js";
import { git, repoPaths } from "../support/git.js";
import { hashedRelativePath } from "../../functions/hosting/domain/git/index.js";
import { ARCHIVE_CHUNK, resolveArchive } from "../../functions/hosting/domain/git/archive.js";
import { BZIP2_CHUNK, archiveChunks, type ArchiveKind, type ArchiveMeter } from "../../functions/hosting/domain/git/archive-stream.js";

const sh = (cmd: string, args: string[], cwd?: string) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

let owner: Awaited<ReturnType<typeof newUser>>;
let project: { id: number; path: string };
let bare: string;
let head: string;
let work: string;

/** Files git archive must reproduce: nested folders, an executable, a symlink, a file to exclude. */
beforeAll(async () => {
  owner = await newUser();
  const created = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("arch"), initialize_with_readme: true } });
  project = { id: created.body.id as number, path: created.body.path as string };
  bare = repoPaths("default", "project", project.id)[0]!;
  work = mkdtempSync(join(tmpdir(), "archive-test-"));
  const clone = join(work, "clone");
  sh("git", ["clone", "-q", bare, clone]);
  mkdirSync(join(clone, "src/lib"), { recursive: true });
  mkdirSync(join(clone, "docs"));
  writeFileSync(join(clone, "src/lib/util.ts"), "export const x = 1;\n");
  writeFileSync(join(clone, "src/run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
  writeFileSync(join(clone, "docs/guide.md"), "# Guide\n".repeat(1000));
  sh("ln", ["-s", "src/run.sh", "run"], clone);
  for (const args of [["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "tree"], ["push", "-q", "origin", "HEAD:main", "HEAD:refs/heads/feature/x"]]) sh("git", args, clone);
  head = git(bare, "rev-parse", "main").trim();
  git(bare, "tag", "v1", "main");
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

async function download(query: string, token = owner.token) {
  const res = await fetch(`${baseUrl()}/api/v4/projects/${project.id}/repository/${query}`, { headers: { "Private-Token": token } });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/** Rails' `Content-Disposition` for a plain name: the same name in `filename` and in `filename*`. */
const attachment = (name: string) => `attachment; filename="${name}"; filename*=UTF-8''${name}`;

/** Unpacks `file` with the real tool after its own integrity check; answers the folder. */
function unpack(file: string, kind: ArchiveKind): string {
  const out = `${file}.d`;
  mkdirSync(out);
  if (kind === "tar.gz") sh("gzip", ["-t", file]);
  if (kind === "tar.bz2") sh("bzip2", ["-t", file]);
  if (kind === "zip") {
    sh("unzip", ["-t", "-qq", file]);
    sh("unzip", ["-qq", file, "-d", out]);
  } else sh("tar", [kind === "tar.gz" ? "-xzpf" : kind === "tar.bz2" ? "-xjpf" : "-xpf", file, "-C", out]);
  return out;
}

/** Every path with its type, permissions, content or link target. */
function listing(dir: string): string {
  return sh("find", [".", "-printf", "%p %y %m %l\\n"], dir).split("\n").sort().join("\n") + sh("sh", ["-c", "find . -type f -print0 | sort -z | xargs -0 sha1sum"], dir);
}

function reference(kind: "tar" | "zip", prefix: string, pathspec: string[] = []): string {
  const file = join(work, `${unique("ref")}.${kind}`);
  execFileSync("git", ["--git-dir", bare, "archive", `--format=${kind}`, `--prefix=${prefix}/`, `--output=${file}`, head, ...pathspec]);
  return listing(unpack(file, kind));
}

describe("GET /projects/:id/repository/archive[.format]", () => {
  const formats: Array<[string, ArchiveKind, string]> = [
    ["archive", "tar.gz", "tar.gz"],
    ["archive.tar.gz", "tar.gz", "tar.gz"],
    ["archive.tar", "tar", "tar"],
    ["archive.tar.bz2", "tar.bz2", "tar.bz2"],
    ["archive.tbz", "tar.bz2", "tar.bz2"],
    ["archive.tbz2", "tar.bz2", "tar.bz2"],
    ["archive.tb2", "tar.bz2", "tar.bz2"],
    ["archive.bz2", "tar.bz2", "tar.bz2"],
    ["archive.zip", "zip", "zip"],
  ];
  it.each(formats)("%s is a %s that unpacks to git archive's tree", async (route, kind, extension) => {
    const { res, body } = await download(route);
    expect(res.status).toBe(200);
    const prefix = `${project.path}-main-${head}`;
    expect(res.headers.get("content-disposition")).toBe(attachment(`${prefix}.${extension}`));
    expect(res.headers.get("content-type")).toBe(kind === "zip" ? "application/zip" : "application/octet-stream");
    const file = join(work, `${unique("ours")}.${extension}`);
    writeFileSync(file, body);
    expect(listing(unpack(file, kind))).toBe(reference(kind === "zip" ? "zip" : "tar", prefix));
  });

  it("takes a branch, tag or commit as sha, a path and exclude_paths", async () => {
    const branch = await download("archive.tar?sha=feature/x");
    expect(branch.res.headers.get("content-disposition")).toBe(attachment(`${project.path}-feature-x-${head}.tar`));
    const bySha = await download(`archive.zip?sha=${head.slice(0, 8)}`);
    expect(bySha.res.headers.get("content-disposition")).toBe(attachment(`${project.path}-${head.slice(0, 8)}-${head}.zip`));

    const sub = await download("archive.tar?sha=v1&path=src");
    const prefix = `${project.path}-v1-${head}-src`;
    expect(sub.res.headers.get("content-disposition")).toBe(attachment(`${prefix}.tar`));
    const file = join(work, `${unique("sub")}.tar`);
    writeFileSync(file, sub.body);
    expect(listing(unpack(file, "tar"))).toBe(reference("tar", prefix, ["src"]));

    const excluded = await download("archive.tar?exclude_paths=docs,src/lib");
    const file2 = join(work, `${unique("excl")}.tar`);
    writeFileSync(file2, excluded.body);
    expect(listing(unpack(file2, "tar"))).toBe(reference("tar", `${project.path}-main-${head}`, [":(exclude)docs", ":(exclude)src/lib"]));
    expect((await download("archive.tar?include_lfs_blobs=false")).res.status).toBe(200);
  });

  it("answers GitLab's errors: unknown ref or path, bad format, visibility and role", async () => {
    const base = `/api/v4/projects/${project.id}/repository`;
    expect(await api("GET", `${base}/archive?sha=nope`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 File Not Found" } });
    expect(await api("GET", `${base}/archive.zip?path=missing`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 File Not Found" } });
    expect(await api("GET", `${base}/archive.rar`, { token: owner.token })).toMatchObject({ status: 400, body: { error: "format does not have a valid value" } });
    expect(await api("GET", `${base}/archive?include_lfs_blobs=maybe`, { token: owner.token })).toMatchObject({ status: 400 });
    expect(await api("GET", `${base}/archives`, { token: owner.token })).toMatchObject({ status: 404, body: { error: "404 Not Found" } });
    // The literal routes beside it still answer.
    expect((await api("GET", `${base}/tree`, { token: owner.token })).status).toBe(200);

    expect(await api("GET", `${base}/archive`)).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await api("GET", `${base}/archive`, { token: "glpat-not-a-real-token-000" })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    const stranger = await newUser();
    expect(await api("GET", `${base}/archive`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    const guest = await newUser();
    await api("POST", `/api/v4/projects/${project.id}/members`, { token: owner.token, body: { user_id: guest.id, access_level: 10 } });
    expect(await api("GET", `${base}/archive`, { token: guest.token })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });

    // A public project's archive needs no token.
    const open = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("pub"), visibility: "public", initialize_with_readme: true } });
    const anonymous = await fetch(`${baseUrl()}/api/v4/projects/${open.body.id}/repository/archive.tar`);
    expect(anonymous.status).toBe(200);
    const file = join(work, `${unique("public")}.tar`);
    writeFileSync(file, Buffer.from(await anonymous.arrayBuffer()));
    expect(sh("tar", ["-tf", file])).toMatch(new RegExp(`^${open.body.path}-main-[0-9a-f]{40}/README\\.md$`, "m"));
  });

  it("holds a bounded number of bytes while a large blob is read slowly, in every format", async () => {
    const clone = join(work, "clone");
    const big = randomBytes(2 << 20); // random: no format shrinks it, so output keeps pace with input
    writeFileSync(join(clone, "big.bin"), big);
    for (const args of [["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "big"], ["push", "-q", "origin", "HEAD:refs/heads/big"]]) sh("git", args, clone);
    const rel = hashedRelativePath("project", project.id);
    for (const kind of ["tar", "zip", "tar.gz", "tar.bz2"] as ArchiveKind[]) {
      const source = (await resolveArchive("default", rel, { sha: "big" }))!;
      const meter: ArchiveMeter = { produced: 0 };
      const chunks = archiveChunks(source, "p", kind, meter);
      let read = 0;
      let most = 0;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        // A slow reader: the next chunk is asked for only after the turn of the event loop.
        await new Promise((resolve) => setImmediate(resolve));
        read += next.value.length;
        most = Math.max(most, meter.produced - read);
      }
      expect(read).toBeGreaterThan(big.length);
      // Ahead of the reader: at most a compressor's chunk and a slice or two, never the blob.
      const bound = (kind === "tar.bz2" ? BZIP2_CHUNK : 0) + 4 * ARCHIVE_CHUNK;
      expect(most, kind).toBeLessThanOrEqual(bound);
      expect(bound).toBeLessThan(big.length / 2);
    }
  });
});
