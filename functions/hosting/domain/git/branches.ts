/**
 * Branches as GitLab's branches API (`/projects/:id/repository/branches`) sees them: listed with
 * GitLab's search and sort, each with its head commit and whether the default branch contains it;
 * created from any ref and deleted with compare-and-swap on the ref, like every ref this service moves.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { readCommitInfo, type CommitInfo } from "./commit-info.js";
import { GitActionError } from "./errors.js";
import { requireRepository } from "./lifecycle.js";
import { withRepositoryMutex } from "./mutex.js";
import { refSearch } from "./ref-search.js";
import { deleteRef, isValidRefName, listAllRefs, resolveCommit, resolveExactRef, updateRef, type ObjectCache } from "./refs.js";
import { mirrorToReplicas } from "./replica-sync.js";
import { replicaPaths } from "./storage.js";
import { reachableFrom } from "./walk.js";

export interface Branch {
  name: string;
  commit: CommitInfo;
  /** GitLab's `merged`: the default branch contains the head, and the head is not the default branch's own. */
  merged: boolean;
  default: boolean;
}

export type BranchSort = "name_asc" | "updated_asc" | "updated_desc";

const HEADS = "refs/heads/";

/** One page of the branches whose names match `search`, and how many match in all. */
export async function listBranchPage(
  storage: string,
  rel: string,
  opts: { defaultBranch: string; search?: string; sort?: BranchSort; offset: number; limit: number },
): Promise<{ branches: Branch[]; total: number }> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const matches = refSearch(opts.search);
  const all = (await listAllRefs(gitdir)).filter((r) => r.name.startsWith(HEADS)).map((r) => ({ name: r.name.slice(HEADS.length), oid: r.oid }));
  // The default branch's head comes from the same listing: no second read of its ref.
  const base = { name: opts.defaultBranch, oid: all.find((h) => h.name === opts.defaultBranch)?.oid };
  let heads = all.filter((h) => matches(h.name));
  if (opts.sort === "updated_asc" || opts.sort === "updated_desc") {
    const dated = await Promise.all(heads.map(async (h) => ({ ...h, at: (await git.readCommit({ fs, gitdir, oid: h.oid, cache })).commit.committer.timestamp })));
    const sign = opts.sort === "updated_asc" ? 1 : -1;
    heads = dated.sort((a, b) => sign * (a.at - b.at) || (a.name < b.name ? -1 : 1));
  }
  const page = heads.slice(opts.offset, opts.offset + opts.limit);
  const merged = mergedInto(gitdir, base.oid, cache, page.length > 1);
  return { branches: await Promise.all(page.map((h) => describeBranch(gitdir, h, base, cache, merged))), total: heads.length };
}

export async function findBranch(storage: string, rel: string, name: string, defaultBranch: string): Promise<Branch | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const oid = await branchHead(gitdir, name);
  if (!oid) return undefined;
  return describeBranch(gitdir, { name, oid }, await defaultHead(gitdir, defaultBranch), {});
}

/**
 * GitLab's `Branches::CreateService`: a valid name (`Branch name is invalid`), not taken (`Branch
 * already exists`), not a commit id (GitLab's push check), from a ref naming a commit (`Invalid
 * reference name: <ref>`); each a 400. `guard` is GitLab's push check of the new ref (protected
 * branches), run once the branch is valid, before it is written; it throws to refuse.
 */
export async function createBranch(storage: string, rel: string, input: { name: string; ref: string; defaultBranch: string; guard?: () => Promise<void> }): Promise<Branch> {
  if (!isValidRefName(input.name)) throw new GitActionError("Branch name is invalid");
  const paths = replicaPaths(storage, rel);
  return withRepositoryMutex(paths[0]!, async () => {
    const gitdir = await requireRepository(storage, rel);
    const cache: ObjectCache = {};
    if (await branchHead(gitdir, input.name)) throw new GitActionError("Branch already exists");
    if (/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(input.name)) throw new GitActionError("You cannot create a branch with a SHA-1 or SHA-256 branch name.");
    const oid = await resolveCommit(gitdir, input.ref, cache);
    if (!oid) throw new GitActionError(`Invalid reference name: ${input.ref}`);
    await input.guard?.();
    await updateRef(gitdir, `${HEADS}${input.name}`, oid, undefined);
    await mirrorToReplicas(paths);
    return describeBranch(gitdir, { name: input.name, oid }, await defaultHead(gitdir, input.defaultBranch), cache);
  });
}

/**
 * GitLab's `Branches::DeleteService`: false when there is no such branch; the default branch is
 * refused with the sentence GitLab's push check gives (a 400); `guard` checks the deletion then
 * (protected branches).
 */
export async function deleteBranch(storage: string, rel: string, input: { name: string; defaultBranch: string; guard?: () => Promise<void> }): Promise<boolean> {
  const paths = replicaPaths(storage, rel);
  return withRepositoryMutex(paths[0]!, async () => {
    const gitdir = await requireRepository(storage, rel);
    const oid = await branchHead(gitdir, input.name);
    if (!oid) return false;
    if (input.name === input.defaultBranch) throw new GitActionError("The default branch of a project cannot be deleted.");
    await input.guard?.();
    await deleteRef(gitdir, `${HEADS}${input.name}`, oid);
    await mirrorToReplicas(paths);
    return true;
  });
}

/**
 * GitLab's `Branches::DeleteMergedService`: every branch the default branch contains, other than
 * the default branch and those `keep` names (protected ones), deleted with compare-and-swap on its
 * ref. Answers the names deleted, by name.
 */
export async function deleteMergedBranches(storage: string, rel: string, input: { defaultBranch: string; keep: (name: string) => boolean }): Promise<string[]> {
  const paths = replicaPaths(storage, rel);
  return withRepositoryMutex(paths[0]!, async () => {
    const gitdir = await requireRepository(storage, rel);
    const cache: ObjectCache = {};
    const heads = (await listAllRefs(gitdir)).filter((r) => r.name.startsWith(HEADS)).map((r) => ({ name: r.name.slice(HEADS.length), oid: r.oid }));
    const base = heads.find((h) => h.name === input.defaultBranch)?.oid;
    const deleted: string[] = [];
    if (!base) return deleted;
    // The default branch's history, walked once for every head.
    const merged = mergedInto(gitdir, base, cache, true);
    for (const head of heads) {
      if (head.name === input.defaultBranch || input.keep(head.name) || !(await merged(head.oid))) continue;
      await deleteRef(gitdir, `${HEADS}${head.name}`, head.oid);
      deleted.push(head.name);
    }
    if (deleted.length) await mirrorToReplicas(paths);
    return deleted;
  });
}

/** The head of a branch given by its short name; never a tag or another ref of that name. */
function branchHead(gitdir: string, name: string): Promise<string | undefined> {
  return isValidRefName(name) ? resolveExactRef(gitdir, `${HEADS}${name}`) : Promise.resolve(undefined);
}

async function defaultHead(gitdir: string, name: string) {
  return { name, oid: await branchHead(gitdir, name) };
}

/**
 * GitLab's `merged` of a branch head: the default branch (`base`, its head) contains it, and it is
 * not the default branch's head itself. With `many` heads to test, the default branch's history is
 * walked once, when the first head asks, and answers them all; a single head asks git alone, which
 * stops as soon as it finds it.
 */
function mergedInto(gitdir: string, base: string | undefined, cache: ObjectCache, many = false): (head: string) => Promise<boolean> {
  let history: Promise<Set<string>> | undefined;
  return async (head) => {
    if (base === undefined || head === base) return false;
    if (!many) return git.isDescendent({ fs, gitdir, oid: base, ancestor: head, depth: -1, cache });
    return (await (history ??= reachableFrom(gitdir, base, cache))).has(head);
  };
}

async function describeBranch(
  gitdir: string,
  head: { name: string; oid: string },
  base: { name: string; oid?: string },
  cache: ObjectCache,
  merged = mergedInto(gitdir, base.oid, cache),
): Promise<Branch> {
  return { name: head.name, commit: await readCommitInfo(gitdir, head.oid, cache), merged: await merged(head.oid), default: head.name === base.name };
}
