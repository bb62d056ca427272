/**
 * Read-only queries against the primary copy: trees, files, history, branches.
 */
import { gitFs as fs } from "./git-fs.js";
import { git, gitErrorCode } from "./engine.js";
import { readCommitInfo, storedMessage, toCommitInfo, type CommitInfo } from "./commit-info.js";
import { requireRepository } from "./lifecycle.js";
import type { CommitObject } from "isomorphic-git";
import { takeHistory, walkHistory } from "./walk.js";
import { commitStats, type DiffStats } from "./diff.js";
import { headBranch, isNotFound, listAllRefs, listBranchNames, resolveCommit, resolveExactRef, type ObjectCache } from "./refs.js";

export interface TreeItem {
  id: string;
  name: string;
  type: "tree" | "blob" | "commit";
  path: string;
  /** As GitLab shows it: "040000", "100644", "100755", "120000", "160000". */
  mode: string;
}

/**
 * `GET /projects/:id/repository/tree`. Undefined when the ref or the folder does not exist (GitLab
 * answers `404 Tree Not Found`). Folders come first, then files, each in git's order, as on GitLab.
 */
export async function listTree(
  storage: string,
  rel: string,
  opts: { ref?: string; path?: string; recursive?: boolean } = {},
): Promise<TreeItem[] | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const commit = await resolveUserRef(gitdir, opts.ref, cache);
  if (!commit) return undefined;
  let treeOid = (await git.readCommit({ fs, gitdir, oid: commit, cache })).commit.tree;
  const base = (opts.path ?? "").replace(/^\/+|\/+$/g, "");
  for (const part of base ? base.split("/") : []) {
    const { tree } = await git.readTree({ fs, gitdir, oid: treeOid, cache });
    const entry = tree.find((e) => e.path === part);
    if (!entry || entry.type !== "tree") return undefined;
    treeOid = entry.oid;
  }
  const items: TreeItem[] = [];
  const visit = async (oid: string, prefix: string): Promise<void> => {
    const { tree } = await git.readTree({ fs, gitdir, oid, cache });
    for (const entry of tree) {
      const path = prefix ? `${prefix}/${entry.path}` : entry.path;
      items.push({ id: entry.oid, name: entry.path, type: entry.type, path, mode: entry.mode });
      if (opts.recursive && entry.type === "tree") await visit(entry.oid, path);
    }
  };
  await visit(treeOid, base);
  return [...items.filter((i) => i.type === "tree"), ...items.filter((i) => i.type !== "tree")];
}

/** The bytes of `filePath` at `ref`, or undefined when the ref, the file or the repository is missing. */
export async function readFile(
  storage: string,
  rel: string,
  opts: { ref: string; filePath: string },
): Promise<Buffer | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const filepath = opts.filePath.replace(/^\/+/, "");
  if (!filepath || filepath.endsWith("/")) return undefined;
  const commit = await resolveCommit(gitdir, opts.ref, cache);
  if (!commit) return undefined;
  try {
    const { blob } = await git.readBlob({ fs, gitdir, oid: commit, filepath, cache });
    return Buffer.from(blob);
  } catch (err) {
    // Missing path, or the path names a folder.
    if (isNotFound(err) || gitErrorCode(err) === "ObjectTypeError") return undefined;
    throw err;
  }
}

/**
 * History reachable from `ref` (default branch when omitted), newest first; with `all`, from every
 * ref (git's `log --all`, which GitLab's `all=true` runs), `ref` ignored.
 */
export async function listCommits(
  storage: string,
  rel: string,
  opts: { ref?: string; all?: boolean; offset: number; limit: number },
): Promise<{ commits: CommitInfo[]; hasMore: boolean }> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  if (opts.limit <= 0) return { commits: [], hasMore: false };
  // One extra entry tells whether another page exists without walking the whole history.
  const offset = Math.max(0, opts.offset);
  const depth = offset + opts.limit + 1;
  let log: Array<{ oid: string; commit: CommitObject }>;
  if (opts.all) log = await takeHistory(walkHistory(gitdir, await everyRefCommit(gitdir, cache), cache), depth);
  else {
    const commit = await resolveUserRef(gitdir, opts.ref, cache);
    if (!commit) return { commits: [], hasMore: false };
    log = await git.log({ fs, gitdir, ref: commit, depth, cache });
  }
  const page = log.slice(offset, offset + opts.limit);
  return {
    commits: await Promise.all(page.map(async (entry) => toCommitInfo(entry.oid, entry.commit, await storedMessage(gitdir, entry.oid, cache)))),
    hasMore: log.length > offset + opts.limit,
  };
}

/** The commits every ref (branches, tags, the rest of `refs/`) and HEAD point at, each once. */
async function everyRefCommit(gitdir: string, cache: ObjectCache): Promise<string[]> {
  const names = [...(await listAllRefs(gitdir)).map((r) => r.name), "HEAD"];
  const oids = await Promise.all(names.map((name) => resolveCommit(gitdir, name, cache)));
  return [...new Set(oids.filter((oid): oid is string => oid !== undefined))];
}

/** One commit by ref or (abbreviated) id, or undefined. */
export async function getCommit(storage: string, rel: string, ref: string): Promise<CommitInfo | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const oid = await resolveCommit(gitdir, ref, cache);
  if (!oid) return undefined;
  return readCommitInfo(gitdir, oid, cache);
}

/** One commit, with GitLab's `stats` (lines added and removed against its first parent) if asked; or undefined. */
export async function getCommitDetail(storage: string, rel: string, ref: string, withStats: boolean): Promise<(CommitInfo & { stats?: DiffStats }) | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const oid = await resolveCommit(gitdir, ref, cache);
  if (!oid) return undefined;
  const [info, stats] = await Promise.all([readCommitInfo(gitdir, oid, cache), withStats ? commitStats(gitdir, oid, cache) : undefined]);
  return stats ? { ...info, stats } : info;
}

/** Branches sorted by name, each with the commit it points at. */
export async function listBranches(storage: string, rel: string): Promise<Array<{ name: string; commitId: string }>> {
  const gitdir = await requireRepository(storage, rel);
  const branches: Array<{ name: string; commitId: string }> = [];
  for (const name of await listBranchNames(gitdir)) {
    const commitId = await resolveExactRef(gitdir, `refs/heads/${name}`);
    if (commitId) branches.push({ name, commitId });
  }
  return branches.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The default branch (undefined for an empty repository). */
export async function defaultBranch(storage: string, rel: string): Promise<string | undefined> {
  return defaultBranchOf(await requireRepository(storage, rel));
}

/**
 * Gitaly's rule: HEAD's branch if it exists; otherwise `main`, then `master`, then the first branch.
 */
export async function defaultBranchOf(gitdir: string): Promise<string | undefined> {
  const names = await listBranchNames(gitdir);
  if (names.length === 0) return undefined;
  const head = await headBranch(gitdir);
  for (const candidate of [head, "main", "master"]) {
    if (candidate && names.includes(candidate)) return candidate;
  }
  return [...names].sort()[0];
}

async function resolveUserRef(gitdir: string, ref: string | undefined, cache: ObjectCache): Promise<string | undefined> {
  const name = ref ?? (await defaultBranchOf(gitdir));
  if (name === undefined) return undefined;
  // A default branch is a branch name: resolve it as one, even if a tag has the same name.
  return ref === undefined ? resolveExactRef(gitdir, `refs/heads/${name}`) : resolveCommit(gitdir, name, cache);
}
