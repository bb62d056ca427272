/**
 * Reverting a commit on a branch, like GitLab's `POST /projects/:id/repository/commits/:sha/revert`:
 * the commit's changes undone on top of the branch's head, as one new commit.
 *
 * The undo is a three-way merge per path — base: the reverted commit, theirs: its first parent,
 * ours: the branch head. A path the branch still has as the commit left it takes the parent's
 * version; a path already as the parent had it stays; anything else is a conflict. Paths are not
 * merged line by line: a file changed again since the commit cannot be reverted automatically.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { commitTitle, readCommitInfo, storedMessage, type CommitInfo } from "./commit-info.js";
import { sanitizeIdentity, writeCommitObject } from "./commit-object.js";
import { ChangeError, GitActionError } from "./errors.js";
import { requireRepository } from "./lifecycle.js";
import { withRepositoryMutex } from "./mutex.js";
import { resolveCommit, resolveExactRef, updateRef, type ObjectCache } from "./refs.js";
import { mirrorToReplicas } from "./replica-sync.js";
import { replicaPaths } from "./storage.js";
import { treeChanges, type Side } from "./tree-changes.js";
import { TreeEditor, type Node } from "./tree-editor.js";

export interface RevertInput {
  /** The commit to revert: an id or any ref naming it. */
  commit: string;
  branch: string;
  author: { name: string; email: string };
  /** Check that the revert applies, write nothing that a ref points at. */
  dryRun?: boolean;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
}

/** GitLab's sentence for a revert that does not apply (`Commits::ChangeService`). */
const CANNOT_REVERT = "Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.";

/** The new commit, or undefined after a successful dry run. */
export async function revertCommit(storage: string, rel: string, input: RevertInput): Promise<CommitInfo | undefined> {
  const paths = replicaPaths(storage, rel);
  return withRepositoryMutex(paths[0]!, async () => {
    const gitdir = await requireRepository(storage, rel);
    const cache: ObjectCache = {};
    const target = await resolveCommit(gitdir, input.commit, cache);
    if (!target) throw new GitActionError("Commit not found");
    const branchRef = `refs/heads/${input.branch}`;
    const head = await resolveExactRef(gitdir, branchRef);
    if (!head) throw new GitActionError("Branch not found");

    const reverted = (await git.readCommit({ fs, gitdir, oid: target, cache })).commit;
    const parent = reverted.parent[0];
    const parentTree = parent ? (await git.readCommit({ fs, gitdir, oid: parent, cache })).commit.tree : undefined;
    const headTree = (await git.readCommit({ fs, gitdir, oid: head, cache })).commit.tree;

    const editor = new TreeEditor(gitdir, cache, headTree);
    const changes = await treeChanges(gitdir, cache, reverted.tree, parentTree);
    // Removals first: a file that replaces a folder needs the folder's files gone.
    const ordered = [...changes.filter((c) => !c.after), ...changes.filter((c) => c.after)];
    try {
      for (const change of ordered) {
        const ours = await editor.get(change.path.split("/"));
        if (same(ours, change.after)) continue; // already as the parent had it
        if (!same(ours, change.before)) throw new ChangeError(CANNOT_REVERT, "conflict");
        if (change.after) await editor.setLeaf(change.path.split("/"), { kind: "leaf", ...change.after });
        else await editor.remove(change.path.split("/"));
      }
    } catch (err) {
      // A file where the change needs a folder (or the reverse) is a conflict too.
      if (err instanceof GitActionError) throw new ChangeError(CANNOT_REVERT, "conflict");
      throw err;
    }
    const tree = await editor.write();
    if (tree === headTree) throw new ChangeError(CANNOT_REVERT, "empty");
    if (input.dryRun) return undefined;

    const who = {
      name: sanitizeIdentity(input.author.name),
      email: sanitizeIdentity(input.author.email),
      timestamp: input.timestamp ?? Math.floor(Date.now() / 1000),
    };
    const message = `Revert "${commitTitle(await storedMessage(gitdir, target, cache)).trim()}"\n\nThis reverts commit ${target}`;
    const oid = await writeCommitObject(gitdir, { tree, parents: [head], author: who, committer: who, message });
    await updateRef(gitdir, branchRef, oid, head);
    await mirrorToReplicas(paths);
    return readCommitInfo(gitdir, oid, cache);
  });
}

/** Whether the branch's node at a path is exactly `side` (both absent counts as the same). */
function same(node: Node | undefined, side: Side | undefined): boolean {
  if (!node || !side) return !node && !side;
  return node.kind === "leaf" && node.oid === side.oid && node.mode === side.mode;
}
