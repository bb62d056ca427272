/**
 * The repository domain, checked against the real git CLI (tests only; production never runs git).
 * Needs no database: it configures its own storages under a temporary folder.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { resetInstanceConfig } from "../../functions/platform/config.js";
import {
  ChecksumMismatchError,
  EMPTY_CHECKSUM,
  GitActionError,
  UnknownStorageError,
  checksum,
  commitActions,
  defaultBranch,
  getCommit,
  hashedRelativePath,
  initRepository,
  listBranches,
  listCommits,
  listTree,
  readFile,
  removeRepository,
  replicaChecksums,
  replicaPaths,
  replicate,
  repositoryExists,
  repositorySize,
  withRepositoryMutex,
  type CommitActionsInput,
} from "../../functions/hosting/domain/git/index.js";

const root = mkdtempSync(join(tmpdir(), "forgeline-git-"));
const savedEnv = { config: process.env.FORGELINE_CONFIG, json: process.env.FORGELINE_CONFIG_JSON };
const author = { name: "Ada Lovelace", email: "ada@example.com" };
let seq = 0;
const newRel = () => `@hashed/te/st/repo-${++seq}-${process.pid}.git`;

beforeAll(() => {
  // A file config (set by the shared harness) would win over the inline one.
  delete process.env.FORGELINE_CONFIG;
  process.env.FORGELINE_CONFIG_JSON = JSON.stringify({
    storages: {
      default: { kind: "local", path: join(root, "local") },
      other: { kind: "local", path: join(root, "other") },
      cluster: { kind: "cluster", replicas: [1, 2, 3].map((i) => join(root, `replica-${i}`)) },
    },
  });
  resetInstanceConfig();
});

afterAll(() => {
  if (savedEnv.config === undefined) delete process.env.FORGELINE_CONFIG;
  else process.env.FORGELINE_CONFIG = savedEnv.config;
  if (savedEnv.json === undefined) delete process.env.FORGELINE_CONFIG_JSON;
  else process.env.FORGELINE_CONFIG_JSON = savedEnv.json;
  resetInstanceConfig();
  rmSync(root, { recursive: true, force: true });
});

// ---- real git helpers -------------------------------------------------------------------------

const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: root,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};
function git(args: string[], cwd?: string): string {
  return execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}
const gd = (path: string, ...args: string[]) => git(["--git-dir", path, ...args]);

function fsckClean(path: string): void {
  // Throws (non-zero exit) on any error; --strict also rejects malformed trees and identities.
  const out = execFileSync("git", ["--git-dir", path, "fsck", "--strict", "--no-dangling", "--full"], {
    env: gitEnv,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  expect(out).not.toMatch(/error|warning|missing|broken/i);
}

/** The checksum computed independently from `git for-each-ref`. */
function cliChecksum(path: string): string {
  const acc = Buffer.alloc(20);
  for (const line of gd(path, "for-each-ref", "--format=%(objectname) %(refname)").split("\n")) {
    if (!line) continue;
    const d = createHash("sha1").update(line).digest();
    for (let i = 0; i < 20; i++) acc[i]! ^= d[i]!;
  }
  return acc.toString("hex");
}

function clone(path: string, branch?: string): string {
  const dir = mkdtempSync(join(root, "clone-"));
  git(["clone", "--quiet", ...(branch ? ["--branch", branch] : []), path, dir]);
  return dir;
}

/** Every file of a repository directory with its bytes (to compare replicas byte for byte). */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) visit(p);
      else out.set(relative(dir, p), readFileSync(p).toString("hex"));
    }
  };
  visit(dir);
  return out;
}

function expectReplicasIdentical(rel: string): void {
  const [first, ...others] = replicaPaths("cluster", rel).map(snapshot);
  for (const other of others) expect(other).toEqual(first);
}

async function expectActionError(p: Promise<unknown>, message: string | RegExp): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GitActionError);
  if (typeof message === "string") expect((err as Error).message).toBe(message);
  else expect((err as Error).message).toMatch(message);
}

const commit = (storage: string, rel: string, input: Partial<CommitActionsInput> & Pick<CommitActionsInput, "actions">) =>
  commitActions(storage, rel, { branch: "main", message: "change", author, ...input });

/** A repository with nested folders, a base64 binary and an executable script. */
async function seeded(storage: string): Promise<string> {
  const rel = newRel();
  await initRepository(storage, rel);
  await commit(storage, rel, {
    message: "Initial commit",
    timestamp: 1_700_000_000,
    actions: [
      { action: "create", file_path: "README.md", content: "# Hello\n" },
      { action: "create", file_path: "src/lib/deep/util.ts", content: "export const x = 1;\n" },
      { action: "create", file_path: "src/main.ts", content: "console.log('hi');\n" },
      { action: "create", file_path: "bin/run.sh", content: "#!/bin/sh\necho run\n", execute_filemode: true },
      { action: "create", file_path: "assets/logo.bin", content: Buffer.from([0, 1, 2, 255, 254]).toString("base64"), encoding: "base64" },
    ],
  });
  return rel;
}

// ---- tests --------------------------------------------------------------------------------------

describe("storage paths", () => {
  it("mirrors GitLab's hashed storage layout", () => {
    const h = "6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b"; // sha256("1")
    expect(hashedRelativePath("project", 1)).toBe(`@hashed/6b/86/${h}.git`);
    expect(hashedRelativePath("group-wiki", 1)).toBe(`@groups/6b/86/${h}.wiki.git`);
    expect(hashedRelativePath("snippet", 1)).toBe(`@snippets/6b/86/${h}.git`);
  });

  it("lists one directory for a local storage and one per replica for a cluster", () => {
    expect(replicaPaths("default", "@hashed/aa/bb/x.git")).toEqual([join(root, "local", "@hashed/aa/bb/x.git")]);
    expect(replicaPaths("cluster", "a.git")).toEqual([1, 2, 3].map((i) => join(root, `replica-${i}`, "a.git")));
    expect(() => replicaPaths("nope", "a.git")).toThrow(UnknownStorageError);
    expect(() => replicaPaths("default", "../escape.git")).toThrow(/Invalid repository path/);
    expect(() => replicaPaths("default", "/abs.git")).toThrow(/Invalid repository path/);
  });
});

describe("initRepository", () => {
  it("creates an empty bare repository on every replica, idempotently", async () => {
    const rel = newRel();
    expect(await repositoryExists("cluster", rel)).toBe(false);
    await initRepository("cluster", rel);
    await initRepository("cluster", rel); // again: no error, nothing changes
    expect(await repositoryExists("cluster", rel)).toBe(true);
    for (const path of replicaPaths("cluster", rel)) {
      expect(gd(path, "rev-parse", "--is-bare-repository").trim()).toBe("true");
      expect(gd(path, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
      fsckClean(path);
    }
    expectReplicasIdentical(rel);
    expect(await checksum("cluster", rel)).toBe(EMPTY_CHECKSUM);
    expect(await replicaChecksums("cluster", rel)).toEqual([EMPTY_CHECKSUM, EMPTY_CHECKSUM, EMPTY_CHECKSUM]);
    expect(await defaultBranch("cluster", rel)).toBeUndefined();
    expect(await listCommits("cluster", rel, { offset: 0, limit: 10 })).toEqual({ commits: [], hasMore: false });
    expect(await repositorySize("cluster", rel)).toBeGreaterThan(0);
  });

  it("honours a custom default branch", async () => {
    const rel = newRel();
    await initRepository("default", rel, { defaultBranch: "trunk" });
    expect(gd(replicaPaths("default", rel)[0]!, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/trunk");
    await expectActionError(initRepository("default", newRel(), { defaultBranch: "bad..name" }), "Branch name is invalid");
  });
});

describe("commitActions", () => {
  it("writes commits git accepts, with nested folders, base64 and executable files", async () => {
    const rel = await seeded("default");
    const path = replicaPaths("default", rel)[0]!;
    const second = await commit("default", rel, {
      message: "Rework files\n\nMove, delete, chmod and update in one go.",
      timestamp: 1_700_000_100,
      actions: [
        { action: "update", file_path: "README.md", content: "# Hello again\n" },
        { action: "move", previous_path: "src/main.ts", file_path: "app/entry.ts" },
        { action: "move", previous_path: "src/lib/deep/util.ts", file_path: "lib/util.ts", content: "export const x = 2;\n" },
        { action: "delete", file_path: "assets/logo.bin" },
        { action: "chmod", file_path: "bin/run.sh", execute_filemode: false },
        { action: "create", file_path: "bin/tool", content: "#!/bin/sh\n" },
        { action: "chmod", file_path: "bin/tool", execute_filemode: true },
      ],
    });
    fsckClean(path);

    expect(gd(path, "rev-parse", "main").trim()).toBe(second.id);
    expect(gd(path, "log", "--format=%s|%an|%ae|%cn|%at", "main").trim().split("\n")).toEqual([
      "Rework files|Ada Lovelace|ada@example.com|Ada Lovelace|1700000100",
      "Initial commit|Ada Lovelace|ada@example.com|Ada Lovelace|1700000000",
    ]);
    expect(second).toMatchObject({
      short_id: second.id.slice(0, 8),
      title: "Rework files",
      message: "Rework files\n\nMove, delete, chmod and update in one go.",
      author_name: "Ada Lovelace",
      committer_email: "ada@example.com",
      authored_date: "2023-11-14T22:15:00.000+00:00",
      committed_date: "2023-11-14T22:15:00.000+00:00",
      created_at: "2023-11-14T22:15:00.000+00:00",
      parent_ids: [gd(path, "rev-parse", "main~1").trim()],
    });

    const work = clone(path);
    expect(readFileSync(join(work, "README.md"), "utf8")).toBe("# Hello again\n");
    expect(readFileSync(join(work, "app/entry.ts"), "utf8")).toBe("console.log('hi');\n");
    expect(readFileSync(join(work, "lib/util.ts"), "utf8")).toBe("export const x = 2;\n");
    expect(existsSync(join(work, "src"))).toBe(false); // emptied folders vanish
    expect(existsSync(join(work, "assets"))).toBe(false);
    expect(gd(path, "ls-tree", "-r", "main", "bin").trim().split("\n").map((l) => l.split(" ")[0])).toEqual(["100644", "100755"]);
    expect(statSync(join(work, "bin/tool")).mode & 0o111).not.toBe(0);
    expect(statSync(join(work, "bin/run.sh")).mode & 0o111).toBe(0);

    // The first commit's tree, as the user created it, including the binary and the executable bit.
    const first = clone(path);
    git(["checkout", "--quiet", "main~1"], first);
    expect([...readFileSync(join(first, "assets/logo.bin"))]).toEqual([0, 1, 2, 255, 254]);
    expect(readFileSync(join(first, "src/lib/deep/util.ts"), "utf8")).toBe("export const x = 1;\n");
    expect(statSync(join(first, "bin/run.sh")).mode & 0o111).not.toBe(0);
  });

  it("creates a branch from startBranch and makes the first branch of an empty repository the default", async () => {
    const rel = newRel();
    await initRepository("default", rel, { defaultBranch: "main" });
    await commit("default", rel, { branch: "develop", actions: [{ action: "create", file_path: "a.txt", content: "a" }] });
    const path = replicaPaths("default", rel)[0]!;
    expect(gd(path, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/develop");
    expect(await defaultBranch("default", rel)).toBe("develop");

    const feature = await commit("default", rel, {
      branch: "feature/x",
      startBranch: "develop",
      actions: [{ action: "create", file_path: "b.txt", content: "b" }],
    });
    expect(feature.parent_ids).toEqual([gd(path, "rev-parse", "develop").trim()]);
    expect((await listBranches("default", rel)).map((b) => b.name)).toEqual(["develop", "feature/x"]);
    expect(readFileSync(join(clone(path, "feature/x"), "a.txt"), "utf8")).toBe("a");
    fsckClean(path);
  });

  it("rejects user errors with GitLab's messages and leaves the branch untouched", async () => {
    const rel = await seeded("default");
    const path = replicaPaths("default", rel)[0]!;
    const head = gd(path, "rev-parse", "main").trim();
    const one = (action: CommitActionsInput["actions"][number]) => commit("default", rel, { actions: [action] });

    await expectActionError(one({ action: "create", file_path: "README.md", content: "x" }), "A file with this name already exists");
    await expectActionError(one({ action: "create", file_path: "src", content: "x" }), "A directory with this name already exists");
    await expectActionError(one({ action: "create", file_path: "README.md/inner", content: "x" }), "A file with this name already exists");
    await expectActionError(one({ action: "update", file_path: "nope.md", content: "x" }), "A file with this name doesn't exist");
    await expectActionError(one({ action: "update", file_path: "src", content: "x" }), "A file with this name doesn't exist");
    await expectActionError(one({ action: "delete", file_path: "nope.md" }), "A file with this name doesn't exist");
    await expectActionError(one({ action: "chmod", file_path: "nope.md", execute_filemode: true }), "A file with this name doesn't exist");
    await expectActionError(one({ action: "move", previous_path: "nope.md", file_path: "x.md" }), "A file with this name doesn't exist");
    await expectActionError(one({ action: "move", previous_path: "README.md", file_path: "src/main.ts" }), "A file with this name already exists");
    await expectActionError(one({ action: "move", file_path: "x.md" }), /previous path/);
    await expectActionError(one({ action: "create", file_path: "../evil", content: "x" }), "Path cannot include directory traversal");
    await expectActionError(one({ action: "create", file_path: "a/../../evil", content: "x" }), "Path cannot include directory traversal");
    for (const bad of ["/etc/passwd", "a/.git/config", ".GIT/hooks/x", ".git", "a//b", "dir/", "./a"]) {
      await expectActionError(one({ action: "create", file_path: bad, content: "x" }), /Invalid file path/);
    }
    await expectActionError(one({ action: "create", file_path: "", content: "x" }), "You must provide a file path");
    await expectActionError(one({ action: "create", file_path: "b.bin", content: "@@not base64@@", encoding: "base64" }), "Invalid base64 content");
    // A later action failing discards the earlier ones too: a commit is all or nothing.
    await expectActionError(
      commit("default", rel, { actions: [{ action: "create", file_path: "ok.txt", content: "x" }, { action: "delete", file_path: "nope" }] }),
      "A file with this name doesn't exist",
    );

    await expectActionError(
      commit("default", rel, { branch: "missing", actions: [{ action: "create", file_path: "n.txt", content: "x" }] }),
      "You can only create or edit files when you are on a branch",
    );
    await expectActionError(
      commit("default", rel, { branch: "fresh", startBranch: "missing", actions: [{ action: "create", file_path: "n.txt" }] }),
      "You can only create or edit files when you are on a branch",
    );
    await commit("default", rel, { branch: "topic", startBranch: "main", actions: [] });
    await expectActionError(
      commit("default", rel, { branch: "topic", startBranch: "main", actions: [{ action: "create", file_path: "n.txt" }] }),
      "A branch called 'topic' already exists. Switch to that branch in order to make changes",
    );
    for (const bad of ["a..b", "-x", "x.lock", "with space", "a//b", "HEAD", "x~1"]) {
      await expectActionError(commit("default", rel, { branch: bad, startBranch: "main", actions: [] }), "Branch name is invalid");
    }
    await expectActionError(
      commit("default", rel, { branch: "main/sub", startBranch: "main", actions: [] }),
      /conflicts with the existing ref refs\/heads\/main/,
    );

    expect(gd(path, "rev-parse", "main").trim()).toBe(head);
    expect(gd(path, "rev-list", "--count", "main").trim()).toBe("1");
    fsckClean(path);
  });

  it("respects a ref lock held by another writer but breaks an orphaned one", async () => {
    const rel = await seeded("default");
    const lock = join(replicaPaths("default", rel)[0]!, "refs/heads/main.lock");
    writeFileSync(lock, "");
    const change = () => commit("default", rel, { actions: [{ action: "create", file_path: `f${Math.random()}`, content: "x" }] });
    await expectActionError(change(), "Could not update refs/heads/main. Please refresh and try again.");
    expect(existsSync(lock)).toBe(true); // someone else's lock is left alone
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    const made = await change();
    expect(gd(replicaPaths("default", rel)[0]!, "rev-parse", "main").trim()).toBe(made.id);
    expect(existsSync(lock)).toBe(false);
  });

  it("rewrites only the folders on the changed path in a large repository", async () => {
    const rel = newRel();
    await initRepository("default", rel);
    const actions = Array.from({ length: 400 }, (_, i) => ({
      action: "create" as const,
      file_path: `pkg${i % 8}/mod${i % 5}/file${i}.txt`,
      content: `file ${i}\n`,
    }));
    const started = Date.now();
    await commit("default", rel, { message: "many files", actions });
    await commit("default", rel, { actions: [{ action: "update", file_path: "pkg3/mod1/file11.txt", content: "changed\n" }] });
    expect(Date.now() - started).toBeLessThan(20_000);
    const path = replicaPaths("default", rel)[0]!;
    expect(gd(path, "ls-tree", "-r", "--name-only", "main").trim().split("\n")).toHaveLength(400);
    // Untouched folders keep their tree ids; the changed one gets a new id.
    expect(gd(path, "rev-parse", "main:pkg2").trim()).toBe(gd(path, "rev-parse", "main~1:pkg2").trim());
    expect(gd(path, "rev-parse", "main:pkg3/mod0").trim()).toBe(gd(path, "rev-parse", "main~1:pkg3/mod0").trim());
    expect(gd(path, "rev-parse", "main:pkg3/mod1").trim()).not.toBe(gd(path, "rev-parse", "main~1:pkg3/mod1").trim());
    expect(gd(path, "show", "main:pkg3/mod1/file11.txt")).toBe("changed\n");
    fsckClean(path);
  });
});

describe("reading", () => {
  it("lists trees, reads files and pages through history", async () => {
    const rel = await seeded("default");
    await commit("default", rel, { message: "second", actions: [{ action: "create", file_path: "z.txt", content: "z" }] });
    await commit("default", rel, { message: "third", actions: [{ action: "delete", file_path: "z.txt" }] });
    const path = replicaPaths("default", rel)[0]!;

    const top = await listTree("default", rel);
    expect(top?.map((e) => [e.type, e.path, e.mode])).toEqual([
      ["tree", "assets", "040000"],
      ["tree", "bin", "040000"],
      ["tree", "src", "040000"],
      ["blob", "README.md", "100644"],
    ]);
    expect(top?.[0]?.id).toBe(gd(path, "rev-parse", "main:assets").trim());
    const sub = await listTree("default", rel, { path: "src/lib", ref: "main" });
    expect(sub).toEqual([{ id: gd(path, "rev-parse", "main:src/lib/deep").trim(), name: "deep", type: "tree", path: "src/lib/deep", mode: "040000" }]);
    const all = await listTree("default", rel, { recursive: true });
    expect(all?.filter((e) => e.type === "blob").map((e) => e.path).sort()).toEqual(
      gd(path, "ls-tree", "-r", "--name-only", "main").trim().split("\n").sort(),
    );
    expect(all?.find((e) => e.path === "bin/run.sh")?.mode).toBe("100755");
    expect(await listTree("default", rel, { path: "nope" })).toBeUndefined();
    expect(await listTree("default", rel, { ref: "no-such-branch" })).toBeUndefined();

    expect((await readFile("default", rel, { ref: "main", filePath: "src/lib/deep/util.ts" }))?.toString()).toBe("export const x = 1;\n");
    expect([...(await readFile("default", rel, { ref: "main", filePath: "assets/logo.bin" }))!]).toEqual([0, 1, 2, 255, 254]);
    expect(await readFile("default", rel, { ref: "main", filePath: "src" })).toBeUndefined();
    expect(await readFile("default", rel, { ref: "main", filePath: "z.txt" })).toBeUndefined();
    const secondId = gd(path, "rev-parse", "main~1").trim();
    expect((await readFile("default", rel, { ref: secondId.slice(0, 10), filePath: "z.txt" }))?.toString()).toBe("z");

    const page1 = await listCommits("default", rel, { offset: 0, limit: 2 });
    expect(page1.commits.map((c) => c.title)).toEqual(["third", "second"]);
    expect(page1.hasMore).toBe(true);
    const page2 = await listCommits("default", rel, { ref: "main", offset: 2, limit: 2 });
    expect(page2.commits.map((c) => c.title)).toEqual(["Initial commit"]);
    expect(page2.hasMore).toBe(false);
    expect(page1.commits.map((c) => c.id)).toEqual(gd(path, "rev-list", "--max-count=2", "main").trim().split("\n"));
    expect((await getCommit("default", rel, secondId))?.message).toBe("second"); // as stored: no newline added, as Gitaly
    expect(await getCommit("default", rel, "does-not-exist")).toBeUndefined();
    expect(await listBranches("default", rel)).toEqual([{ name: "main", commitId: gd(path, "rev-parse", "main").trim() }]);
    expect(await defaultBranch("default", rel)).toBe("main");
  });
});

describe("checksum", () => {
  it("matches one computed from git for-each-ref, for branches, tags, other refs and packed refs", async () => {
    const rel = await seeded("default");
    const path = replicaPaths("default", rel)[0]!;
    await commit("default", rel, { branch: "dev", startBranch: "main", actions: [{ action: "create", file_path: "d", content: "d" }] });
    gd(path, "tag", "-a", "v1.0", "-m", "release", "main");
    gd(path, "tag", "light", "dev");
    gd(path, "update-ref", "refs/merge-requests/1/head", "dev");
    expect(await checksum("default", rel)).toBe(cliChecksum(path));
    expect(await checksum("default", rel)).not.toBe(EMPTY_CHECKSUM);

    gd(path, "pack-refs", "--all"); // refs move into packed-refs
    expect(await checksum("default", rel)).toBe(cliChecksum(path));

    // A loose ref overrides its packed line; a symbolic ref counts as what it points at; a dangling
    // one and an update in flight (`.lock`) do not count.
    gd(path, "update-ref", "refs/heads/dev", "main");
    gd(path, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/heads/dev");
    gd(path, "symbolic-ref", "refs/remotes/origin/gone", "refs/heads/nowhere");
    writeFileSync(join(path, "refs", "heads", "main.lock"), `${"0".repeat(40)}\n`);
    expect(await checksum("default", rel)).toBe(cliChecksum(path));
    rmSync(join(path, "refs", "heads", "main.lock"));
    // An annotated tag is peeled to its commit when used as a ref.
    expect((await readFile("default", rel, { ref: "v1.0", filePath: "README.md" }))?.toString()).toBe("# Hello\n");
  });
});

describe("cluster storage", () => {
  it("keeps every replica identical, valid and with the same checksum", async () => {
    const rel = await seeded("cluster");
    await commit("cluster", rel, { branch: "other", startBranch: "main", actions: [{ action: "delete", file_path: "README.md" }] });
    await commit("cluster", rel, { actions: [{ action: "update", file_path: "src/main.ts", content: "updated\n" }] });
    const paths = replicaPaths("cluster", rel);
    for (const path of paths) {
      fsckClean(path);
      expect(gd(path, "log", "--format=%s", "main").trim().split("\n")).toEqual(["change", "Initial commit"]);
    }
    expectReplicasIdentical(rel);
    const sums = await replicaChecksums("cluster", rel);
    expect(sums).toEqual([cliChecksum(paths[0]!), cliChecksum(paths[0]!), cliChecksum(paths[0]!)]);
    expect(sums.every((s) => s === cliChecksum(paths[2]!))).toBe(true);
    expect(readFileSync(join(clone(paths[2]!), "src/main.ts"), "utf8")).toBe("updated\n");
  });

  it("repairs a replica that missed earlier writes on the next write", async () => {
    const rel = await seeded("cluster");
    const [, second, third] = replicaPaths("cluster", rel);
    rmSync(third!, { recursive: true, force: true });
    rmSync(join(second!, "refs/heads/main"));
    writeFileSync(join(second!, "refs/heads/stale"), gd(replicaPaths("cluster", rel)[0]!, "rev-parse", "main"));
    await commit("cluster", rel, { actions: [{ action: "create", file_path: "new.txt", content: "n" }] });
    expectReplicasIdentical(rel);
    for (const path of replicaPaths("cluster", rel)) fsckClean(path);
    expect(gd(second!, "for-each-ref", "--format=%(refname)").trim()).toBe("refs/heads/main");
  });

  it("serialises 20 concurrent commits into one linear history", async () => {
    const rel = newRel();
    await initRepository("cluster", rel);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        commit("cluster", rel, { message: `commit ${i}`, actions: [{ action: "create", file_path: `files/f${i}.txt`, content: `${i}\n` }] }),
      ),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(20);
    for (const path of replicaPaths("cluster", rel)) {
      fsckClean(path);
      expect(gd(path, "rev-list", "--count", "main").trim()).toBe("20");
      expect(gd(path, "rev-list", "--merges", "main").trim()).toBe("");
      expect(gd(path, "log", "--format=%s", "main").trim().split("\n").sort()).toEqual(
        Array.from({ length: 20 }, (_, i) => `commit ${i}`).sort(),
      );
      expect(gd(path, "ls-tree", "--name-only", "main", "files/").trim().split("\n")).toHaveLength(20);
      // Every object, ref and HEAD write went through a temporary name that was renamed away.
      expect([...snapshot(path).keys()].filter((f) => /tmp_|\.lock$/.test(f))).toEqual([]);
    }
    expectReplicasIdentical(rel);
  });
});

describe("withRepositoryMutex", () => {
  it("runs critical sections for one key one at a time and survives failures", async () => {
    const events: string[] = [];
    const section = (name: string, fail = false) =>
      withRepositoryMutex("k", async () => {
        events.push(`${name}:start`);
        await new Promise((r) => setTimeout(r, 5));
        events.push(`${name}:end`);
        if (fail) throw new Error("boom");
        return name;
      });
    const results = await Promise.allSettled([section("a"), section("b", true), section("c")]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(events).toEqual(["a:start", "a:end", "b:start", "b:end", "c:start", "c:end"]);
  });
});

describe("replicate", () => {
  function listing(dir: string): string[] {
    const out: string[] = [];
    const visit = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        out.push(`${relative(dir, p)}:${e.isDirectory() ? "d" : statSync(p).mtimeMs}`);
        if (e.isDirectory()) visit(p);
      }
    };
    visit(dir);
    return out.sort();
  }
  const leftovers = (target: string) => readdirSync(dirname(target)).filter((n) => n.startsWith(basename(target)));

  it("copies local → cluster and verifies every replica, without touching the source", async () => {
    const rel = await seeded("default");
    const source = replicaPaths("default", rel)[0]!;
    gd(source, "tag", "-a", "v1", "-m", "tag", "main");
    gd(source, "repack", "-a", "-d", "-q"); // a pack and its index must travel too
    const before = listing(source);
    const destRel = newRel();
    await replicate({ storage: "default", rel }, { storage: "cluster", rel: destRel }, { kind: "project" });
    expect(listing(source)).toEqual(before);
    const expected = cliChecksum(source);
    for (const path of replicaPaths("cluster", destRel)) {
      fsckClean(path);
      expect(cliChecksum(path)).toBe(expected);
      expect(gd(path, "rev-parse", "main", "v1")).toBe(gd(source, "rev-parse", "main", "v1"));
      expect(leftovers(path)).toEqual([basename(path)]);
    }
    expect(await replicaChecksums("cluster", destRel)).toEqual([expected, expected, expected]);
    expect(readFileSync(join(clone(replicaPaths("cluster", destRel)[1]!), "src/main.ts"), "utf8")).toBe("console.log('hi');\n");
    // The copy is a working repository: it accepts new commits and stays replicated.
    await commit("cluster", destRel, { actions: [{ action: "create", file_path: "after-move.txt", content: "m" }] });
    expectReplicasIdentical(destRel);
  });

  it("copies cluster → local and replaces an existing destination", async () => {
    const rel = await seeded("cluster");
    const destRel = newRel();
    await initRepository("other", destRel); // stale copy, replaced by the move
    await replicate({ storage: "cluster", rel }, { storage: "other", rel: destRel });
    const dest = replicaPaths("other", destRel)[0]!;
    fsckClean(dest);
    expect(await checksum("other", destRel)).toBe(await checksum("cluster", rel));
    expect(cliChecksum(dest)).toBe(cliChecksum(replicaPaths("cluster", rel)[0]!));
    expect(gd(dest, "log", "--format=%s", "main").trim()).toBe("Initial commit");
    expect(leftovers(dest)).toEqual([basename(dest)]);
  });

  it("detects a tampered destination, removes every copy and reports both checksums", async () => {
    const rel = await seeded("default");
    const destRel = newRel();
    const expected = await checksum("default", rel);
    let tamperedSum = "";
    const err = await replicate(
      { storage: "default", rel },
      { storage: "cluster", rel: destRel },
      {
        kind: "project",
        beforeVerify: (paths) => {
          const victim = paths[1]!;
          writeFileSync(join(victim, "refs/heads/evil"), `${gd(victim, "rev-parse", "main").trim()}\n`);
          tamperedSum = cliChecksum(victim);
        },
      },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ChecksumMismatchError);
    expect((err as Error).message).toBe(`Failed to verify project repository checksum from ${expected} to ${tamperedSum}`);
    for (const path of replicaPaths("cluster", destRel)) {
      expect(existsSync(path)).toBe(false);
      expect(leftovers(path)).toEqual([]);
    }
    expect(await repositoryExists("cluster", destRel)).toBe(false);
    fsckClean(replicaPaths("default", rel)[0]!); // source intact
  });
});

describe("removeRepository", () => {
  it("removes every replica and is idempotent", async () => {
    const rel = await seeded("cluster");
    expect(await repositorySize("cluster", rel)).toBeGreaterThan(0);
    await removeRepository("cluster", rel);
    await removeRepository("cluster", rel);
    for (const path of replicaPaths("cluster", rel)) expect(existsSync(path)).toBe(false);
    expect(await repositoryExists("cluster", rel)).toBe(false);
    expect(await repositorySize("cluster", rel)).toBe(0);
  });
});
