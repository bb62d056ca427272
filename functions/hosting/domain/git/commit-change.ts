/**
 * Applying one commit's change to a branch as a new commit, as GitLab's `Commits::ChangeService`
 * does for `POST /projects/:id/repository/commits/:sha/revert` (the change undone) and
 * `…/cherry_pick` (the change made again).
 *
 * The change is a three-way merge per path. A revert goes from the commit's tree back to its first
 * parent's; a cherry-pick from the first parent's tree to the commit's. A path the branch still has
 * as the change's start takes the change's end; a path already as the end stays; anything else is
 * a conflict. Paths are not merged line by line: a file changed again since the commit cannot be
 * reverted or picked automatically.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { commitTitle, readCommitInfo, storedMessage, type CommitInfo } from "./commit-info.js";
import { sanitizeIdentity, writeCommitObject, type Signature } from "./commit-object.js";
import { ChangeError, GitActionError } from "./errors.js";
import { requireRepository } from "./lifecycle.js";
import { withRepositoryMutex } from "./mutex.js";
import { resolveCommit, resolveExactRef, updateRef, type ObjectCache } from "./refs.js";
import { mirrorToReplicas } from "./replica-sync.js";
import { replicaPaths } from "./storage.js";
import { treeChanges, type Side } from "./tree-changes.js";
import { TreeEditor, type Node } from "./tree-editor.js";

export interface ChangeInput {
  /** The commit whose change is applied: an id or any ref naming it. */
  commit: string;
  branch: string;
  /** Who makes the new commit. */
  author: { name: string; email: string };
  /** Check that the change applies, write nothing that a ref points at. */
  dryRun?: boolean;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
}

export type RevertInput = ChangeInput;
export type CherryPickInput = ChangeInput & { message?: string };

/** GitLab's sentences for a change that does not apply. */
const CANNOT = {
  revert: "Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.",
  cherryPick: "Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.",
};

/** The new commit, or undefined after a successful dry run. */
export function revertCommit(storage: string, rel: string, input: RevertInput): Promise<CommitInfo | undefined> {
  return applyCommitChange(storage, rel, input, {
    refusal: CANNOT.revert,
    direction: "undo",
    // The caller authors a revert; the message names what it undoes.
    message: (target, message) => `Revert "${commitTitle(message).trim()}"\n\nThis reverts commit ${target}`,
    author: (_original, caller) => caller,
  });
}

/**
 * A cherry-pick keeps the picked commit's author (git's and Gitaly's rule) and is committed by the
 * caller; its message is the original one with `(cherry picked from commit <sha>)` appended, as
 * GitLab's `Commit#cherry_pick_message` writes it, unless the caller gives one.
 */
export function cherryPickCommit(storage: string, rel: string, input: CherryPickInput): Promise<CommitInfo | undefined> {
  return applyCommitChange(storage, rel, input, {
    refusal: CANNOT.cherryPick,
    direction: "redo",
    message: (target, message) => input.message ?? `${message.replace(/\s+$/, "")}\n\n(cherry picked from commit ${target})`,
    author: (original) => original,
  });
}

interface ChangeKind {
  refusal: string;
  /** `undo`: from the commit's tree to its parent's (revert); `redo`: the other way (cherry-pick). */
  direction: "undo" | "redo";
  message: (target: string, storedMessage: string) => string;
  author: (original: Signature, caller: Signature) => Signature;
}

async function applyCommitChange(storage: string, rel: string, input: ChangeInput, kind: ChangeKind): Promise<CommitInfo | undefined> {
  const paths = replicaPaths(storage, rel);
  return withRepositoryMutex(paths[0]!, async () => {
    const gitdir = await requireRepository(storage, rel);
    const cache: ObjectCache = {};
    const target = await resolveCommit(gitdir, input.commit, cache);
    if (!target) throw new GitActionError("Commit not found");
    const branchRef = `refs/heads/${input.branch}`;
    const head = await resolveExactRef(gitdir, branchRef);
    if (!head) throw new GitActionError("Branch not found");

    const changed = (await git.readCommit({ fs, gitdir, oid: target, cache })).commit;
    const parent = changed.parent[0];
    const parentTree = parent ? (await git.readCommit({ fs, gitdir, oid: parent, cache })).commit.tree : undefined;
    const headTree = (await git.readCommit({ fs, gitdir, oid: head, cache })).commit.tree;
    const [fromTree, toTree] = kind.direction === "undo" ? [changed.tree, parentTree] : [parentTree, changed.tree];
    const tree = await mergeChange(gitdir, cache, headTree, fromTree, toTree, kind.refusal);
    if (tree === headTree) throw new ChangeError(kind.refusal, "empty");
    if (input.dryRun) return undefined;

    const caller = {
      name: sanitizeIdentity(input.author.name),
      email: sanitizeIdentity(input.author.email),
      timestamp: input.timestamp ?? Math.floor(Date.now() / 1000),
    };
    const author = kind.author({ name: changed.author.name, email: changed.author.email, timestamp: changed.author.timestamp }, caller);
    const message = kind.message(target, await storedMessage(gitdir, target, cache));
    const oid = await writeCommitObject(gitdir, { tree, parents: [head], author, committer: caller, message });
    await updateRef(gitdir, branchRef, oid, head);
    await mirrorToReplicas(paths);
    return readCommitInfo(gitdir, oid, cache);
  });
}

/** The head tree with the change `fromTree` → `toTree` applied path by path; a conflict throws `refusal`. */
async function mergeChange(gitdir: string, cache: ObjectCache, headTree: string, fromTree: string | undefined, toTree: string | undefined, refusal: string): Promise<string> {
  const editor = new TreeEditor(gitdir, cache, headTree);
  const changes = await treeChanges(gitdir, cache, fromTree, toTree);
  // Removals first: a file that replaces a folder needs the folder's files gone.
  const ordered = [...changes.filter((c) => !c.after), ...changes.filter((c) => c.after)];
  try {
    for (const change of ordered) {
      const ours = await editor.get(change.path.split("/"));
      if (same(ours, change.after)) continue; // already as the change leaves it
      if (!same(ours, change.before)) throw new ChangeError(refusal, "conflict");
      if (change.after) await editor.setLeaf(change.path.split("/"), { kind: "leaf", ...change.after });
      else await editor.remove(change.path.split("/"));
    }
  } catch (err) {
    // A file where the change needs a folder (or the reverse) is a conflict too.
    if (err instanceof GitActionError) throw new ChangeError(refusal, "conflict");
    throw err;
  }
  return editor.write();
}

/** Whether the branch's node at a path is exactly `side` (both absent counts as the same). */
function same(node: Node | undefined, side: Side | undefined): boolean {
  if (!node || !side) return !node && !side;
  return node.kind === "leaf" && node.oid === side.oid && node.mode === side.mode;
}
