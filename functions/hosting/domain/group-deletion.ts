/**
 * Deleting a group that still holds projects or subgroups, as GitLab does: the DELETE answers 202
 * and marks the group; a job (the `group-deletions` cron) deletes everything under it afterwards,
 * projects and their repositories first, then the subgroups from the bottom up, then the group.
 * An empty group is deleted at once by the request itself (`deleteGroup`).
 *
 * Storage moves: the request is refused (409, the read-only answer) while any repository of the
 * subtree — a project's or a group wiki — is scheduled for or in a move, so nothing is deleted
 * under a copy in flight. A move scheduled after the mark is waited for: the job leaves that
 * project, and the groups above it, for a later run.
 *
 * Pending deletions are found with one Query on their own partition (`pendingGroupDeletionKey`),
 * never a Scan. The job is idempotent: each run starts from what is left.
 */
import { getItems, queryAll, transact, deleteItem } from "../../platform/db/table.js";
import { log } from "../../platform/log.js";
import { readOnlyError, withRepositoryWrite } from "./write-path.js";
import { containerKey, PENDING_GROUP_DELETIONS, pendingGroupDeletionKey } from "./keys.js";
import { deleteGroup, findGroup, type Group } from "./groups.js";
import { groupHasChildren, groupSubtree } from "./group-listing.js";
import { deleteProject, findProject } from "./projects.js";
import { removeRepository } from "./git/index.js";

type Subtree = Awaited<ReturnType<typeof groupSubtree>>;

type RepositoryState = { readOnly?: boolean; storageMoveId?: unknown };
const isMoving = (c: RepositoryState | undefined) => c !== undefined && (c.readOnly === true || c.storageMoveId !== undefined);

/** Whether any repository of the subtree (projects, group wikis) is scheduled for or in a storage move. */
async function anyMoving(tree: Subtree): Promise<boolean> {
  const keys = [...tree.projects.map((id) => containerKey("project", id)), ...tree.groups.map((id) => containerKey("group", id))];
  return (await getItems<RepositoryState>(keys)).some(isMoving);
}

/** `DELETE /groups/:id` of a group with children: refuses during moves, else marks it (202). */
export async function scheduleGroupDeletion(group: Group): Promise<void> {
  if (await anyMoving(await groupSubtree(group.id))) throw readOnlyError();
  const markedAt = new Date().toISOString();
  await transact([
    {
      Update: {
        Key: containerKey("group", group.id),
        UpdateExpression: "SET markedForDeletionOn = if_not_exists(markedForDeletionOn, :day)",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":day": markedAt.slice(0, 10) },
      },
    },
    { Put: { Item: { ...pendingGroupDeletionKey(group.id), groupId: group.id, markedAt } } },
  ]);
}

export interface GroupDeletionRun {
  deletedGroups: number;
  deletedProjects: number;
  /** Groups still pending (a repository in a move, or the deadline). */
  pending: number;
}

/**
 * One delete of the job: none needed if the container is gone; none yet (false) while a storage move
 * holds its repository (the container item carries the move state). A failed delete: 404, another
 * run (they may overlap) got there first, so it is gone; 409, a move took the repository meanwhile,
 * so it waits; anything else is an error.
 */
async function deleteUnlessMoving<T>(find: () => Promise<T | undefined>, remove: (container: T) => Promise<void>): Promise<boolean> {
  const container = await find();
  if (!container) return true;
  if (isMoving(container as RepositoryState)) return false;
  try {
    await remove(container);
    return true;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 404) return true;
    if (status === 409) return false;
    throw err;
  }
}

/** Deletes an empty group now, its wiki repository under the write path (409 while the wiki is being moved). */
export async function deleteEmptyGroupNow(group: Group): Promise<void> {
  await withRepositoryWrite("group", group.id, (wiki) => deleteGroup(group, async () => (wiki ? removeRepository(wiki.storage, wiki.relativePath) : undefined)), {
    requireRepository: false,
  });
}

/**
 * Deletes what one marked group holds, then the group, projects first and groups from the deepest
 * up, taking nothing new after `deadline`. A group with a child left (a repository in a move, or
 * the deadline) stays, and so does its marker, for the job's next run.
 */
export async function deleteMarkedGroup(groupId: number, deadline = Number.POSITIVE_INFINITY): Promise<GroupDeletionRun> {
  const run: GroupDeletionRun = { deletedGroups: 0, deletedProjects: 0, pending: 0 };
  const tree = await groupSubtree(groupId);
  let waiting = 0;
  for (const projectId of tree.projects) {
    if (Date.now() < deadline && (await deleteUnlessMoving(() => findProject(projectId), deleteProject))) run.deletedProjects++;
    else waiting++;
  }
  // Deepest groups first: a group is deleted once nothing is left under it.
  for (const id of [...tree.groups].reverse()) {
    if (Date.now() >= deadline || (await groupHasChildren(id))) continue;
    if (await deleteUnlessMoving(() => findGroup(id), deleteEmptyGroupNow)) run.deletedGroups++;
  }
  const marker = pendingGroupDeletionKey(groupId);
  if ((await findGroup(groupId)) === undefined) await deleteItem(marker.pk, marker.sk);
  else {
    run.pending = 1;
    log.info("group deletion continues in the next run", { groupId, waitingProjects: waiting });
  }
  return run;
}

/** One run of the job: every pending group (`deleteMarkedGroup`), until `deadline` (the Lambda's time budget). */
export async function runGroupDeletions(opts: { deadline?: number } = {}): Promise<GroupDeletionRun> {
  const deadline = opts.deadline ?? Number.POSITIVE_INFINITY;
  const run: GroupDeletionRun = { deletedGroups: 0, deletedProjects: 0, pending: 0 };
  const markers = await queryAll<{ groupId: number }>({ pk: PENDING_GROUP_DELETIONS });
  for (const marker of markers) {
    const one = Date.now() < deadline ? await deleteMarkedGroup(marker.groupId, deadline) : { deletedGroups: 0, deletedProjects: 0, pending: 1 };
    run.deletedGroups += one.deletedGroups;
    run.deletedProjects += one.deletedProjects;
    run.pending += one.pending;
  }
  return run;
}
