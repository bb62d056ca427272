/**
 * One file of a repository as GitLab's repository files API describes it: its blob, mode, the
 * commit the ref resolved to and the last commit that changed the path.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { requireRepository } from "./lifecycle.js";
import { resolveCommit, type ObjectCache } from "./refs.js";

export interface FileAtRef {
  content: Buffer;
  blobId: string;
  /** "100644", "100755" or "120000" (a symbolic link, whose content is its target). */
  mode: string;
  commitId: string;
  lastCommitId: string;
}

/**
 * `commit` when the ref names no commit (GitLab answers `404 Commit Not Found`), `file` when the path
 * is not a file at that commit (`404 File Not Found`).
 */
export type FileLookup = FileAtRef | { missing: "commit" | "file" };

export async function fileAtRef(storage: string, rel: string, opts: { ref: string; filePath: string }): Promise<FileLookup> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const commitId = await resolveCommit(gitdir, opts.ref, cache);
  if (!commitId) return { missing: "commit" };
  const entry = await entryAt(gitdir, commitId, opts.filePath.split("/"), cache);
  if (!entry || entry.type !== "blob") return { missing: "file" };
  const { blob } = await git.readBlob({ fs, gitdir, oid: entry.oid, cache });
  return {
    content: Buffer.from(blob),
    blobId: entry.oid,
    mode: entry.mode,
    commitId,
    lastCommitId: await lastCommitForPath(gitdir, commitId, opts.filePath, cache),
  };
}

type Entry = { oid: string; mode: string; type: string };

/** The tree entry at `path` in a commit's tree, or undefined. */
async function entryAt(gitdir: string, commitId: string, path: string[], cache: ObjectCache): Promise<Entry | undefined> {
  let treeOid = (await git.readCommit({ fs, gitdir, oid: commitId, cache })).commit.tree;
  let found: Entry | undefined;
  for (const [i, part] of path.entries()) {
    const { tree } = await git.readTree({ fs, gitdir, oid: treeOid, cache });
    found = tree.find((e) => e.path === part);
    if (!found) return undefined;
    if (i < path.length - 1) {
      if (found.type !== "tree") return undefined;
      treeOid = found.oid;
    }
  }
  return found;
}

const same = (a: Entry | undefined, b: Entry | undefined) => a?.oid === b?.oid && a?.mode === b?.mode;

/**
 * The newest commit reachable from `start` that changed `filePath`, as `git log -1 -- <path>` finds
 * it: history is simplified by following a parent in which the path is the same (the first such
 * parent of a merge); the first commit whose path differs from every parent's is the answer.
 */
export async function lastCommitForPath(gitdir: string, start: string, filePath: string, cache: ObjectCache = {}): Promise<string> {
  const path = filePath.split("/");
  let oid = start;
  let entry = await entryAt(gitdir, oid, path, cache);
  for (;;) {
    const { parent } = (await git.readCommit({ fs, gitdir, oid, cache })).commit;
    let next: string | undefined;
    for (const candidate of parent) {
      if (same(entry, await entryAt(gitdir, candidate, path, cache))) {
        next = candidate;
        break;
      }
    }
    if (!next) return oid;
    oid = next;
  }
}

/** The last commit that changed `filePath` on a branch head, or undefined when the path is absent there. */
export async function lastCommitIfPresent(gitdir: string, head: string, filePath: string, cache: ObjectCache): Promise<string | undefined> {
  if (!(await entryAt(gitdir, head, filePath.split("/"), cache))) return undefined;
  return lastCommitForPath(gitdir, head, filePath, cache);
}
