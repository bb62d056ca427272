/**
 * Sharing a project with a group (GitLab's project group links): the group's direct members reach
 * the project at the lower of their own level and the share's, as a group share gives them its
 * groups. The level itself is worked out where every other level is (access.ts, `projectLevel`,
 * from the project item's `shares`); the share items answer the group's side of the lists.
 */
import { getItems, isConditionFailure, nextId, queryAll, GSI1 } from "../../platform/db/table.js";
import { ApiError, forbidden } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel, activeLevel, expired, type MemberRecord } from "./access.js";
import { containerKey, projectShareKey, projectsSharedWithIndex, projectsSharedWithIndexPk } from "./keys.js";
import { groupLevel, type Group } from "./groups.js";
import { addShare, endShare, unshareProjectWrites, type ProjectShareRecord } from "./share-writes.js";
import type { Project } from "./projects.js";

/** Whether the namespace forbids sharing its projects: `share_with_group_lock` on its group or an ancestor. */
export async function sharingLocked(project: Project): Promise<boolean> {
  const groups = await getItems<Group>(project.namespace.groupIds.map((id) => containerKey("group", id)), false);
  return groups.some((g) => g?.shareWithGroupLock);
}

/**
 * GitLab's `POST /projects/:id/share` (`Projects::GroupLinks::CreateService`), its checks in its
 * order: Maintainer+ (403), the namespace's lock (400), Owner access only from Owners (403), a group
 * the caller is a member of (else `404 Not Found`), then the link's validations (409).
 */
export async function shareProject(
  principal: Principal,
  target: { project: Project; level: number },
  group: Group | undefined,
  input: { groupAccess: number; expiresAt: string | null },
): Promise<ProjectShareRecord> {
  const { project, level } = target;
  if (level < AccessLevel.maintainer) throw forbidden();
  if (await sharingLocked(project)) throw new ApiError(400, { message: "The project sharing with group is disabled" });
  if (input.groupAccess === AccessLevel.owner && level < AccessLevel.owner) throw forbidden();
  if (!group || (await groupLevel(principal, group)) < AccessLevel.guest) throw new ApiError(404, { message: "Not Found" });
  if (project.namespace.groupIds.includes(group.id)) throw new ApiError(409, { message: "Project cannot be shared with the group it is in or one of its ancestors." });
  const record: ProjectShareRecord = { id: await nextId("project-group-links"), projectId: project.id, withGroupId: group.id, groupAccess: input.groupAccess, expiresAt: input.expiresAt, createdAt: new Date().toISOString() };
  const item = { ...projectShareKey(project.id, group.id), ...projectsSharedWithIndex(group.id, project.id), type: "project-share", ...record };
  try {
    await addShare(containerKey("project", project.id), item, group.id, { groupAccess: record.groupAccess, expiresAt: record.expiresAt, createdAt: record.createdAt });
  } catch (err) {
    if (isConditionFailure(err)) throw new ApiError(409, { message: "Group already shared with this group" });
    throw err;
  }
  return record;
}

/** `DELETE /projects/:id/share/:group_id`: Maintainer+ (403), `404 Group Link Not Found` without a share. */
export async function unshareProject(target: { project: Project; level: number }, withGroupId: number): Promise<void> {
  if (target.level < AccessLevel.maintainer) throw forbidden();
  await endShare(unshareProjectWrites(target.project.id, withGroupId, true));
}

/** GitLab's `ProjectGroupLink` entity. */
export const projectShareView = (s: ProjectShareRecord) => ({ id: s.id, project_id: s.projectId, group_id: s.withGroupId, group_access: s.groupAccess, expires_at: s.expiresAt });

/** The unexpired shares of projects with a group, by project id (the group's side, one Query). */
export async function sharesWithGroup(groupId: number): Promise<ProjectShareRecord[]> {
  const shares = await queryAll<ProjectShareRecord>({ index: GSI1, pk: projectsSharedWithIndexPk(groupId) });
  return shares.filter((s) => !expired(s.expiresAt));
}

/**
 * The projects shared with the groups a user is a direct member of, with the level each gives (the
 * lower of the membership's and the share's, the highest over the groups): a per-user set, one Query
 * for the memberships and one per group.
 */
export async function projectLevelsThroughShares(userId: number): Promise<Map<number, number>> {
  const memberships = (await queryAll<MemberRecord & { gsi1sk: string }>({ index: GSI1, pk: `USER#${userId}#GROUPS` })).filter((m) => activeLevel(m) > 0);
  const shares = await Promise.all(memberships.map((m) => sharesWithGroup(Number(m.gsi1sk))));
  const levels = new Map<number, number>();
  shares.forEach((list, i) => {
    for (const s of list) levels.set(s.projectId, Math.max(levels.get(s.projectId) ?? 0, Math.min(s.groupAccess, activeLevel(memberships[i]))));
  });
  return levels;
}
