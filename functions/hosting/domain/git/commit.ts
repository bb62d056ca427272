/**
 * Creating a commit from file actions, like GitLab's `POST /projects/:id/repository/commits`.
 */
import { gitFs as fs } from "./git-fs.js";
import { join } from "node:path";
import { git } from "./engine.js";
import { applyAction, splitPath, type CommitAction } from "./actions.js";
import { lastCommitIfPresent } from "./file-info.js";
import { readCommitInfo, type CommitInfo } from "./commit-info.js";
import { sanitizeIdentity, writeCommitObject } from "./commit-object.js";
import { GitActionError } from "./errors.js";
import { writeFileAtomic } from "./fs-util.js";
import { requireRepository } from "./lifecycle.js";
import { withRepositoryMutex } from "./mutex.js";
import { isValidBranchName, listBranchNames, resolveExactRef, updateRef, type ObjectCache } from "./refs.js";
import { mirrorToReplicas } from "./replica-sync.js";
import { replicaPaths } from "./storage.js";
import { TreeEditor } from "./tree-editor.js";

export interface CommitActionsInput {
  branch: string;
  startBranch?: string;
  message: string;
  author: { name: string; email: string };
  /** Unix seconds; defaults to now. */
  timestamp?: number;
  actions: CommitAction[];
  /**
   * The refusal when an action's `last_commit_id` is not the last commit of its file: GitLab's
   * commits API names the path; its single-file API has a sentence per operation.
   */
  fileChangedMessage?: (filePath: string) => string;
}

/** The actions whose `last_commit_id` GitLab checks (`Files::MultiService`). */
const CHECKS_LAST_COMMIT = new Set<CommitAction["action"]>(["update", "move", "delete"]);

export async function commitActions(storage: string, rel: string, input: CommitActionsInput): Promise<CommitInfo> {
  validateInput(input);
  const paths = replicaPaths(storage, rel);
  return withRepositoryMutex(paths[0]!, async () => {
    const gitdir = await requireRepository(storage, rel);
    const cache: ObjectCache = {};
    const branchRef = `refs/heads/${input.branch}`;
    const branchHead = await resolveExactRef(gitdir, branchRef);
    const isEmpty = (await listBranchNames(gitdir)).length === 0;
    const parent = isEmpty ? undefined : await startingPoint(gitdir, input, branchHead);

    const rootTree = parent ? (await git.readCommit({ fs, gitdir, oid: parent, cache })).commit.tree : undefined;
    if (parent) await checkLastCommits(gitdir, parent, input, cache);
    const editor = new TreeEditor(gitdir, cache, rootTree);
    for (const action of input.actions) await applyAction(gitdir, editor, action);
    const tree = await editor.write();

    const who = {
      name: sanitizeIdentity(input.author.name),
      email: sanitizeIdentity(input.author.email),
      timestamp: input.timestamp ?? Math.floor(Date.now() / 1000),
    };
    const oid = await writeCommitObject(gitdir, { message: input.message, tree, parents: parent ? [parent] : [], author: who, committer: who });
    await updateRef(gitdir, branchRef, oid, branchHead);
    // The first branch of an empty repository becomes its default branch, as on GitLab.
    if (isEmpty) await writeFileAtomic(gitdir, join(gitdir, "HEAD"), `ref: ${branchRef}\n`);
    await mirrorToReplicas(paths);
    return readCommitInfo(gitdir, oid, cache);
  });
}

/** GitLab's rules for which commit a change builds on (`Commits::CreateService#validate!`). */
async function startingPoint(
  gitdir: string,
  input: CommitActionsInput,
  branchHead: string | undefined,
): Promise<string> {
  const start = input.startBranch ?? input.branch;
  if (start !== input.branch && branchHead) {
    throw new GitActionError(
      `A branch called '${input.branch}' already exists. Switch to that branch in order to make changes`,
    );
  }
  const startHead = start === input.branch ? branchHead : await resolveExactRef(gitdir, `refs/heads/${start}`);
  if (!startHead) throw new GitActionError("You can only create or edit files when you are on a branch");
  return startHead;
}

/**
 * GitLab's optimistic check (`file_has_changed?`): a file the caller saw at an older commit was
 * changed since; a file without history on the start point is not checked.
 */
async function checkLastCommits(gitdir: string, start: string, input: CommitActionsInput, cache: ObjectCache): Promise<void> {
  for (const action of input.actions) {
    if (action.last_commit_id === undefined || !CHECKS_LAST_COMMIT.has(action.action)) continue;
    const path = action.action === "move" && action.previous_path ? action.previous_path : action.file_path;
    const last = await lastCommitIfPresent(gitdir, start, splitPath(path).join("/"), cache);
    if (last !== undefined && last !== action.last_commit_id) {
      throw new GitActionError(input.fileChangedMessage?.(path) ?? `The file has changed since you started editing it: ${path}`);
    }
  }
}

function validateInput(input: CommitActionsInput): void {
  if (!isValidBranchName(input.branch)) throw new GitActionError("Branch name is invalid");
  if (input.startBranch !== undefined && !isValidBranchName(input.startBranch)) {
    throw new GitActionError("You can only create or edit files when you are on a branch");
  }
  if (!Array.isArray(input.actions)) throw new GitActionError("actions must be an array");
  if (input.timestamp !== undefined && (!Number.isInteger(input.timestamp) || input.timestamp < 0)) {
    throw new GitActionError("Invalid commit timestamp");
  }
}
