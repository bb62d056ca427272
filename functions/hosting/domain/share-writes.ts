/**
 * The writes that add and end a share, a group's (group links) or a project's (project group links):
 * the share's item and its entry in the container's `shares`, which access checks read; and the
 * clean-ups when either side is deleted. Apart from the sharing rules (`group-shares.ts`,
 * `project-shares.ts`) so that the deletions of projects and groups need none of them.
 */
import { deleteItem, isConditionFailure, queryAll, transact, updateItem, GSI1, type Item, type TransactItem } from "../../platform/db/table.js";
import { notFound } from "../../platform/http/errors.js";
import { containerKey, groupShareKey, projectShareKey, projectSharesRange, projectsSharedWithIndexPk } from "./keys.js";

type Key = { pk: string; sk: string };

/**
 * Adds a share in one transaction: its item (refused if one exists: the transaction's condition
 * failure is the caller's "already shared") and its entry in the container's `shares`.
 */
export async function addShare(container: Key, item: Item, withGroupId: number, entry: { groupAccess: number; expiresAt: string | null; createdAt: string }): Promise<void> {
  // Containers written before sharing existed have no `shares` map for the transaction to add to.
  await updateItem({ ...container, update: "SET shares = if_not_exists(shares, :none)", values: { ":none": {} }, condition: "attribute_exists(pk)" });
  await transact([
    { Put: { Item: item, ConditionExpression: "attribute_not_exists(pk)" } },
    {
      Update: {
        Key: container,
        UpdateExpression: "SET shares.#w = :share",
        ExpressionAttributeNames: { "#w": String(withGroupId) },
        ExpressionAttributeValues: { ":share": entry },
        ConditionExpression: "attribute_exists(pk)",
      },
    },
  ]);
}

export function removeShareWrites(container: Key, share: Key, withGroupId: number, mustExist: boolean): TransactItem[] {
  return [
    { Delete: { Key: share, ...(mustExist ? { ConditionExpression: "attribute_exists(pk)" } : {}) } },
    // Never recreates a container deleted meanwhile (an Update without a condition would).
    { Update: { Key: container, UpdateExpression: "REMOVE shares.#w", ExpressionAttributeNames: { "#w": String(withGroupId) }, ConditionExpression: "attribute_exists(shares)" } },
  ];
}

/** Ends a share (`removeShareWrites` with `mustExist`); none to end is GitLab's `404 Group Link Not Found`. */
export async function endShare(writes: TransactItem[]): Promise<void> {
  try {
    await transact(writes);
  } catch (err) {
    if (isConditionFailure(err)) throw notFound("Group Link");
    throw err;
  }
}

export const unshareWrites = (sharedGroupId: number, withGroupId: number, mustExist: boolean) =>
  removeShareWrites(containerKey("group", sharedGroupId), groupShareKey(sharedGroupId, withGroupId), withGroupId, mustExist);

/** A project shared with a group: the item behind the project's `shares` entry and the group's list. */
export interface ProjectShareRecord {
  /** GitLab's link id (`ProjectGroupLink`). */
  id: number;
  projectId: number;
  withGroupId: number;
  groupAccess: number;
  expiresAt: string | null;
  createdAt: string;
}

export const unshareProjectWrites = (projectId: number, withGroupId: number, mustExist: boolean) =>
  removeShareWrites(containerKey("project", projectId), projectShareKey(projectId, withGroupId), withGroupId, mustExist);

/** A deleted project's share items (its item, holding `shares`, is gone already). */
export async function removeSharesOfProject(projectId: number): Promise<void> {
  const shares = await queryAll<{ pk: string; sk: string }>({ ...projectSharesRange(projectId), projection: ["pk", "sk"] });
  await Promise.all(shares.map((s) => deleteItem(s.pk, s.sk)));
}

/** Every share of a project with a group being deleted (GitLab deletes a deleted group's links). */
export async function removeProjectSharesWith(groupId: number): Promise<void> {
  const shares = await queryAll<ProjectShareRecord>({ index: GSI1, pk: projectsSharedWithIndexPk(groupId) });
  await Promise.all(
    shares.map((s) =>
      transact(unshareProjectWrites(s.projectId, s.withGroupId, false)).catch(async (err) => {
        if (!isConditionFailure(err)) throw err;
        const key = projectShareKey(s.projectId, s.withGroupId); // the project is gone already
        await deleteItem(key.pk, key.sk);
      }),
    ),
  );
}
