/**
 * Sharing a group with another group (GitLab's group links): the invited group's direct members get
 * the shared group's projects and subgroups at the lower of their own level and the share's.
 * The level itself is worked out where every other level is (access.ts, `groupChainLevel`).
 */
import { getItems, isConditionFailure, transact, updateItem } from "../../platform/db/table.js";
import { ApiError, forbidden, notFound } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel, activeShares, canSee, type ShareRecord } from "./access.js";
import { containerKey, groupShareKey, sharedWithIndex } from "./keys.js";
import { unshareWrites } from "./group-share-writes.js";
import { groupLevel, type Group } from "./groups.js";

/** GitLab's `Groups::GroupLinks::CreateService`: Owner of the shared group, reader of the invited one, else `404 Not Found`. */
export async function shareGroup(principal: Principal, shared: { group: Group; level: number }, withGroup: Group, input: { groupAccess: number; expiresAt?: string }): Promise<void> {
  if (shared.level < AccessLevel.owner) throw new ApiError(404, { message: "Not Found" });
  const record: ShareRecord = { sharedGroupId: shared.group.id, withGroupId: withGroup.id, groupAccess: input.groupAccess, expiresAt: input.expiresAt ?? null, createdAt: new Date().toISOString() };
  const group = containerKey("group", shared.group.id);
  // Groups created before sharing existed have no `shares` map for the transaction to add to.
  await updateItem({ ...group, update: "SET shares = if_not_exists(shares, :none)", values: { ":none": {} }, condition: "attribute_exists(pk)" });
  try {
    await transact([
      { Put: { Item: { ...groupShareKey(shared.group.id, withGroup.id), ...sharedWithIndex(withGroup.id, shared.group.id), type: "group-share", ...record }, ConditionExpression: "attribute_not_exists(pk)" } },
      {
        Update: {
          Key: group,
          UpdateExpression: "SET shares.#w = :share",
          ExpressionAttributeNames: { "#w": String(withGroup.id) },
          ExpressionAttributeValues: { ":share": { groupAccess: record.groupAccess, expiresAt: record.expiresAt, createdAt: record.createdAt } },
          ConditionExpression: "attribute_exists(pk)",
        },
      },
    ]);
  } catch (err) {
    if (isConditionFailure(err)) throw new ApiError(409, { message: "Shared group The group has already been shared with this group" });
    throw err;
  }
}

/** `DELETE /groups/:id/share/:group_id`: Owner (403 otherwise), `404 Group Link Not Found` without a share. */
export async function unshareGroup(shared: { group: Group; level: number }, withGroupId: number): Promise<void> {
  if (shared.level < AccessLevel.owner) throw forbidden();
  try {
    await transact(unshareWrites(shared.group.id, withGroupId, true));
  } catch (err) {
    if (isConditionFailure(err)) throw notFound("Group Link");
    throw err;
  }
}

/** GitLab's `shared_with_groups` of a group's detail: the invited groups the caller can see. */
export async function sharedWithGroupsView(principal: Principal | undefined, group: Group) {
  const shares = activeShares(group);
  const groups = await getItems<Group>(shares.map((s) => containerKey("group", s.withGroupId)));
  const visible = await Promise.all(groups.map(async (g) => !!g && canSee(principal, g.visibility, await groupLevel(principal, g))));
  return shares.flatMap((s, i) =>
    visible[i]
      ? [{ group_id: s.withGroupId, group_name: groups[i]!.name, group_full_path: groups[i]!.fullPath, group_access_level: s.groupAccess, expires_at: s.expiresAt }]
      : [],
  );
}
