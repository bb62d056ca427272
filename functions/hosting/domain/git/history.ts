/**
 * Questions about a branch's history: how many commits lead to a commit
 * (`GET …/commits/:sha/sequence`) and who wrote them (`GET …/repository/contributors`).
 */
import { requireRepository } from "./lifecycle.js";
import { defaultBranchOf } from "./read.js";
import { resolveCommit, resolveExactRef, type ObjectCache } from "./refs.js";
import { reachableFrom, takeHistory, walkHistory } from "./walk.js";

/** `git rev-list --count [--first-parent] <ref>`; undefined when `ref` names no commit. */
export async function commitSequence(storage: string, rel: string, ref: string, opts: { firstParent?: boolean } = {}): Promise<number | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const oid = await resolveCommit(gitdir, ref, cache);
  if (!oid) return undefined;
  return (await reachableFrom(gitdir, oid, cache, opts)).size;
}

export interface Contributor {
  name: string;
  email: string;
  commits: number;
  additions: number;
  deletions: number;
}

/** GitLab reads the newest 2,000 commits of the ref, merges left out (`Repository#contributors`). */
const CONTRIBUTOR_COMMITS = 2000;

/**
 * One entry per author e-mail, in order of each author's newest commit, with the name of that
 * commit; `additions`/`deletions` are 0, as GitLab answers them. Undefined when `ref` names no
 * commit; an empty repository has no contributors.
 */
export async function contributors(storage: string, rel: string, ref: string | undefined): Promise<Contributor[] | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const branch = ref ?? (await defaultBranchOf(gitdir));
  if (branch === undefined) return [];
  const head = ref === undefined ? await resolveExactRef(gitdir, `refs/heads/${branch}`) : await resolveCommit(gitdir, branch, cache);
  if (!head) return undefined;
  const commits = await takeHistory(walkHistory(gitdir, [head], cache), CONTRIBUTOR_COMMITS, (e) => e.commit.parent.length <= 1);
  const byEmail = new Map<string, Contributor>();
  for (const { commit } of commits) {
    const found = byEmail.get(commit.author.email);
    if (found) {
      found.commits++;
      found.name ||= commit.author.name;
    } else byEmail.set(commit.author.email, { name: commit.author.name, email: commit.author.email, commits: 1, additions: 0, deletions: 0 });
  }
  return [...byEmail.values()];
}

/**
 * The commits of `head` that `base` lacks (`git log base..head`), oldest first, as GitLab's compare
 * lists them.
 */
export async function commitsBetween(gitdir: string, base: string, head: string, cache: ObjectCache): Promise<string[]> {
  const exclude = await reachableFrom(gitdir, base, cache);
  const newestFirst = await takeHistory(walkHistory(gitdir, [head], cache, { exclude }), Number.MAX_SAFE_INTEGER);
  return newestFirst.map((e) => e.oid).reverse();
}
