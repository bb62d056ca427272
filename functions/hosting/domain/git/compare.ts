/**
 * Comparing two commits as GitLab's `GET /projects/:id/repository/compare` does: the commits `to`
 * has that `from` lacks (`from..to`), and the file diffs — from the merge base of the two
 * (`from...to`), or with `straight` from `from` itself.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { readCommitInfo, type CommitInfo } from "./commit-info.js";
import { treeDiff, type DiffEntry } from "./diff.js";
import { commitsBetween } from "./history.js";
import { requireRepository } from "./lifecycle.js";
import { resolveCommit, type ObjectCache } from "./refs.js";

export interface Comparison {
  /** `from..to`, oldest first. */
  commits: CommitInfo[];
  diffs: DiffEntry[];
  /** More files changed than GitLab's diff limit shows. */
  overflow: boolean;
  /** `from` and `to` name the same commit: no commits, no diffs. */
  same: boolean;
  /** The commits the diff runs between (the merge base, or `from` when straight) and `to`. */
  baseSha: string;
  headSha: string;
}

/** GitLab's instance default `diff_max_files`. */
const MAX_FILES = 1000;

/** Undefined when `from` or `to` names no commit (GitLab: `404 Ref Not Found`). */
export async function compareRefs(storage: string, rel: string, input: { from: string; to: string; straight: boolean }): Promise<Comparison | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const [from, to] = await Promise.all([resolveCommit(gitdir, input.from, cache), resolveCommit(gitdir, input.to, cache)]);
  if (!from || !to) return undefined;
  if (from === to) return { commits: [], diffs: [], overflow: false, same: true, baseSha: from, headSha: to };
  // Histories that never meet have no merge base: their diff is then the straight one.
  const base = input.straight ? from : (((await git.findMergeBase({ fs, gitdir, oids: [from, to], cache })) as string[])[0] ?? from);
  const treeOf = async (oid: string) => (await git.readCommit({ fs, gitdir, oid, cache })).commit.tree;
  const [baseTree, headTree] = await Promise.all([treeOf(base), treeOf(to)]);
  const diff = await treeDiff(gitdir, cache, baseTree, headTree, { offset: 0, limit: MAX_FILES });
  const commits = await Promise.all((await commitsBetween(gitdir, from, to, cache)).map((oid) => readCommitInfo(gitdir, oid, cache)));
  return { commits, diffs: diff.entries, overflow: diff.total > MAX_FILES, same: false, baseSha: base, headSha: to };
}
