/**
 * isomorphic-git's zlib (pako) and SHA-1 (sha.js) are replaced by node:zlib and node:crypto
 * (`functions/hosting/domain/git/node-builtins/`, wired by package.json `overrides`). These check
 * that the replacements keep the contract isomorphic-git relies on, through isomorphic-git itself
 * on repositories the real `git` wrote: loose and packed objects, and a packfile indexed from
 * scratch, which streams every object through `Inflate`.
 */
import { describe, it, expect } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import git from "isomorphic-git";
import * as fs from "node:fs";

const require = createRequire(import.meta.url);
// Resolved from isomorphic-git, as its own imports are.
const fromIsomorphicGit = (id: string) => require(require.resolve(id, { paths: [require.resolve("isomorphic-git")] }));
const pako = fromIsomorphicGit("pako") as {
  inflate(d: Uint8Array): Uint8Array;
  deflate(d: Uint8Array): Uint8Array;
  Inflate: new () => { push(d: Uint8Array, last?: boolean): boolean; result?: Uint8Array; err: number; msg: string; strm: { avail_in: number } };
};
const Sha1 = fromIsomorphicGit("sha.js/sha1.js") as new () => { update(d: Uint8Array | string): { digest(e: "hex"): string } };

function gitRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), "forgeline-builtins-"));
  const run = (...args: string[]) => execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args], { cwd: dir, stdio: "pipe" });
  run("init", "-q");
  for (let i = 0; i < 3; i++) {
    fs.writeFileSync(join(dir, `file-${i}.txt`), `line ${i}\n`.repeat(200 * (i + 1)));
    run("add", ".");
    run("commit", "-q", "-m", `commit ${i}`);
  }
  return dir;
}

describe("isomorphic-git on node:zlib and node:crypto", () => {
  it("is what isomorphic-git resolves (not the JavaScript pako and sha.js)", () => {
    expect(fromIsomorphicGit("pako/package.json").version).toBe("1.0.11-node-zlib");
    expect(fromIsomorphicGit("sha.js/package.json").version).toBe("2.4.12-node-crypto");
  });

  it("inflates and deflates whole buffers; corrupt data throws a string, as pako does", () => {
    const text = Buffer.from("tree 1234\n".repeat(500));
    expect(Buffer.from(pako.inflate(pako.deflate(text)))).toEqual(text);
    expect(Buffer.from(pako.inflate(deflateSync(text)))).toEqual(text);
    let thrown: unknown;
    try {
      pako.inflate(Buffer.from("not a zlib stream"));
    } catch (err) {
      thrown = err;
    }
    expect(typeof thrown).toBe("string");
  });

  it("streams: a result once the deflate stream ends, and how many input bytes follow it", () => {
    const object = Buffer.from("blob contents\n".repeat(300));
    const next = Buffer.from("the next packed object's header and data");
    const packed = Buffer.concat([deflateSync(object), next]);
    const inflator = new pako.Inflate();
    const cut = 40; // the stream arrives in two chunks; the first alone is incomplete
    inflator.push(packed.subarray(0, cut), false);
    expect(inflator.result).toBeUndefined();
    expect(inflator.err).toBe(0);
    inflator.push(packed.subarray(cut), false);
    expect(Buffer.from(inflator.result!)).toEqual(object);
    expect(inflator.strm.avail_in).toBe(next.length);

    const corrupt = new pako.Inflate();
    corrupt.push(Buffer.from("definitely not zlib"), false);
    expect(corrupt.err).not.toBe(0);
    expect(corrupt.msg).toMatch(/header/);
  });

  it("hashes as SHA-1", () => {
    expect(new Sha1().update("").digest("hex")).toBe("da39a3ee5e6b4b0d3255bfef95601890afd80709");
    const content = "hello from git\n";
    const byGit = execFileSync("git", ["hash-object", "--stdin"], { input: content, encoding: "utf8" }).trim();
    expect(new Sha1().update(Buffer.from(`blob ${content.length}\0${content}`)).digest("hex")).toBe(byGit);
  });

  it("reads loose and packed objects git wrote, and indexes a packfile from scratch", async () => {
    const dir = gitRepository();
    try {
      const gitdir = join(dir, ".git");
      const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, encoding: "utf8" }).trim();
      const loose = await git.log({ fs, gitdir, ref: "main" });
      expect(loose.map((c) => c.commit.message.trim())).toEqual(["commit 2", "commit 1", "commit 0"]);

      execFileSync("git", ["repack", "-a", "-d", "-q"], { cwd: dir });
      execFileSync("git", ["prune-packed"], { cwd: dir });
      const packDir = join(gitdir, "objects", "pack");
      const pack = readdirSync(packDir).find((f) => f.endsWith(".pack"))!;
      const { blob } = await git.readBlob({ fs, gitdir, oid: head, filepath: "file-2.txt" });
      expect(Buffer.from(blob).toString()).toBe("line 2\n".repeat(600));

      // Without its index, isomorphic-git walks the pack object by object (`Inflate`, `avail_in`).
      rmSync(join(packDir, pack.replace(/\.pack$/, ".idx")));
      const { oids } = await git.indexPack({ fs, dir, gitdir, filepath: join(".git", "objects", "pack", pack) });
      const expected = execFileSync("git", ["rev-list", "--objects", "--all"], { cwd: dir, encoding: "utf8" }).trim().split("\n").map((l) => l.split(" ")[0]!);
      expect([...oids].sort()).toEqual([...expected].sort());
      expect(execFileSync("git", ["fsck", "--strict", "--no-progress"], { cwd: dir, stdio: "pipe" }).toString()).toBe("");
      const again = await git.log({ fs, gitdir, ref: "main" });
      expect(again.map((c) => c.oid)).toEqual(loose.map((c) => c.oid));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
