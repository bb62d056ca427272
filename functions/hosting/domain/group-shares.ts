/**
 * Sharing a group with another group (GitLab's group links): the invited group's direct members get
 * the shared group's projects and subgroups at the lower of their own level and the share's.
 * The level itself is worked out where every other level is (access.ts, `groupChainLevel`).
 */
import { isConditionFailure, queryAll, GSI1 } from "../../platform/db/table.js";
import { ApiError, forbidden } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel, activeShares, canSee, expired, type SharedGroup, type ShareRecord } from "./access.js";
import { containerKey, groupShareKey, sharedWithIndex, sharedWithIndexPk } from "./keys.js";
import { addShare, endShare, unshareWrites } from "./share-writes.js";
import { findGroup, groupLevel, type Group } from "./groups.js";

/** GitLab's `Groups::GroupLinks::CreateService`: Owner of the shared group, reader of the invited one, else `404 Not Found`. */
export async function shareGroup(principal: Principal, shared: { group: Group; level: number }, withGroup: Group, input: { groupAccess: number; expiresAt?: string }): Promise<void> {
  if (shared.level < AccessLevel.owner) throw new ApiError(404, { message: "Not Found" });
  const record: ShareRecord = { sharedGroupId: shared.group.id, withGroupId: withGroup.id, groupAccess: input.groupAccess, expiresAt: input.expiresAt ?? null, createdAt: new Date().toISOString() };
  const item = { ...groupShareKey(shared.group.id, withGroup.id), ...sharedWithIndex(withGroup.id, shared.group.id), type: "group-share", ...record };
  try {
    await addShare(containerKey("group", shared.group.id), item, withGroup.id, { groupAccess: record.groupAccess, expiresAt: record.expiresAt, createdAt: record.createdAt });
  } catch (err) {
    if (isConditionFailure(err)) throw new ApiError(409, { message: "Shared group The group has already been shared with this group" });
    throw err;
  }
}

/** `DELETE /groups/:id/share/:group_id`: Owner (403 otherwise), `404 Group Link Not Found` without a share. */
export async function unshareGroup(shared: { group: Group; level: number }, withGroupId: number): Promise<void> {
  if (shared.level < AccessLevel.owner) throw forbidden();
  await endShare(unshareWrites(shared.group.id, withGroupId, true));
}

/**
 * GitLab's `shared_with_groups` of a group's or a project's detail: the invited groups the caller can
 * see. A GetItem per share (a container has few): the project views that show them have no other use
 * for a batched read, whose code every such bundle would carry.
 */
export async function sharedWithGroupsView(principal: Principal | undefined, container: SharedGroup) {
  const views = await Promise.all(
    activeShares(container).map(async (s) => {
      const g = await findGroup(s.withGroupId);
      const visible = g && canSee(principal, g.visibility, await groupLevel(principal, g));
      return visible ? [{ group_id: s.withGroupId, group_name: g.name, group_full_path: g.fullPath, group_access_level: s.groupAccess, expires_at: s.expiresAt }] : [];
    }),
  );
  return views.flat();
}

/** The groups that shared themselves with `groupId` (its side of the links, one Query), unexpired. */
export async function groupIdsSharedWith(groupId: number): Promise<number[]> {
  const shares = await queryAll<ShareRecord>({ index: GSI1, pk: sharedWithIndexPk(groupId) });
  return shares.filter((s) => !expired(s.expiresAt)).map((s) => s.sharedGroupId);
}
