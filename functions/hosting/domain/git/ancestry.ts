/**
 * Questions about a commit's place in history: which branches and tags contain it
 * (`GET …/commits/:sha/refs`) and the common ancestor of several refs (`GET …/repository/merge_base`).
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { readCommitInfo, type CommitInfo } from "./commit-info.js";
import { requireRepository } from "./lifecycle.js";
import { listAllRefs, resolveCommit, type ObjectCache } from "./refs.js";

export type RefType = "branch" | "tag";

/**
 * The branches, then the tags, whose history contains `ref`'s commit, each sorted by name;
 * undefined when `ref` names no commit.
 */
export async function refsContaining(storage: string, rel: string, ref: string, types: RefType[]): Promise<Array<{ type: RefType; name: string }> | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const oid = await resolveCommit(gitdir, ref, cache);
  if (!oid) return undefined;
  const prefixes: Record<RefType, string> = { branch: "refs/heads/", tag: "refs/tags/" };
  const all = await listAllRefs(gitdir);
  const found: Array<{ type: RefType; name: string }> = [];
  for (const type of types) {
    for (const { name } of all.filter((r) => r.name.startsWith(prefixes[type]))) {
      // A tag may point at a tag object: its commit is what counts.
      const head = await resolveCommit(gitdir, name, cache);
      if (head && (head === oid || (await git.isDescendent({ fs, gitdir, oid: head, ancestor: oid, depth: -1, cache })))) {
        found.push({ type, name: name.slice(prefixes[type].length) });
      }
    }
  }
  return found;
}

/**
 * GitLab's merge base: `unknown` lists the refs that name no commit (GitLab refuses those); otherwise
 * `commit` is the best common ancestor of all of them, or undefined when their histories never meet.
 */
export async function mergeBase(storage: string, rel: string, refs: string[]): Promise<{ unknown: string[]; commit?: CommitInfo }> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const oids: string[] = [];
  const unknown: string[] = [];
  for (const ref of refs) {
    const oid = await resolveCommit(gitdir, ref, cache);
    if (oid) oids.push(oid);
    else unknown.push(ref);
  }
  if (unknown.length > 0) return { unknown };
  const [base] = (await git.findMergeBase({ fs, gitdir, oids: [...new Set(oids)], cache })) as string[];
  if (!base) return { unknown };
  return { unknown, commit: await readCommitInfo(gitdir, base, cache) };
}
