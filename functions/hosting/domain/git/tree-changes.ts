/**
 * The files that differ between two trees, found by walking both and skipping every subtree whose
 * id is the same on both sides (git's own shortcut): a commit touching k files reads O(k × depth)
 * trees, whatever the size of the repository.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import type { TreeEntry } from "isomorphic-git";
import type { ObjectCache } from "./refs.js";

/** One side of a changed path: a blob (file, symlink) or a submodule commit. */
export interface Side {
  oid: string;
  mode: string;
}

export interface TreeChange {
  path: string;
  /** Absent: the path did not exist before. */
  before?: Side;
  /** Absent: the path no longer exists. */
  after?: Side;
}

/** Changed paths from `oldTree` to `newTree` (undefined: the empty tree), in git's path order. */
export async function treeChanges(gitdir: string, cache: ObjectCache, oldTree: string | undefined, newTree: string | undefined): Promise<TreeChange[]> {
  const changes: TreeChange[] = [];
  await compare(gitdir, cache, oldTree, newTree, "", changes);
  // Byte order of full paths is git's diff order (a tree sorts as "name/").
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function entries(gitdir: string, cache: ObjectCache, oid: string | undefined): Promise<Map<string, TreeEntry>> {
  if (!oid) return new Map();
  const { tree } = await git.readTree({ fs, gitdir, oid, cache });
  return new Map(tree.map((e) => [e.path, e]));
}

async function compare(gitdir: string, cache: ObjectCache, oldTree: string | undefined, newTree: string | undefined, prefix: string, out: TreeChange[]): Promise<void> {
  if (oldTree === newTree) return;
  const [before, after] = await Promise.all([entries(gitdir, cache, oldTree), entries(gitdir, cache, newTree)]);
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const path = prefix ? `${prefix}/${name}` : name;
    const a = before.get(name);
    const b = after.get(name);
    const aTree = a?.type === "tree" ? a.oid : undefined;
    const bTree = b?.type === "tree" ? b.oid : undefined;
    // A folder on either side: compare what is inside it (a file replacing a folder is the folder's
    // files deleted and the file added, as git shows it).
    if (aTree || bTree) await compare(gitdir, cache, aTree, bTree, path, out);
    const aLeaf = a && a.type !== "tree" ? { oid: a.oid, mode: a.mode } : undefined;
    const bLeaf = b && b.type !== "tree" ? { oid: b.oid, mode: b.mode } : undefined;
    if (!aLeaf && !bLeaf) continue;
    if (aLeaf && bLeaf && aLeaf.oid === bLeaf.oid && aLeaf.mode === bLeaf.mode) continue;
    out.push({ path, ...(aLeaf ? { before: aLeaf } : {}), ...(bLeaf ? { after: bLeaf } : {}) });
  }
}
