/**
 * GitLab access levels and visibility. A caller's level on a project is the highest of: its direct
 * membership, its membership of the project's group or any ancestor group, its direct membership of
 * a group the project or one of those groups is shared with (capped at the share's level), ownership
 * of the personal namespace, and admin (treated as Owner). A resource the caller may not see answers
 * 404, never 403.
 */
import { getItem } from "../../platform/db/table.js";
import type { Principal } from "../../identity/domain/auth.js";
import { containerKey, memberKey } from "./keys.js";

export const AccessLevel = { none: 0, guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;
export const ACCESS_LEVELS = [10, 20, 30, 40, 50] as const;
export type Visibility = "private" | "internal" | "public";
/** Orders visibilities from least to most visible (GitLab's visibility levels 0, 10, 20). */
export const visibilityRank = (v: Visibility) => ["private", "internal", "public"].indexOf(v);

export interface MemberRecord {
  userId: number;
  accessLevel: number;
  expiresAt: string | null;
  createdAt: string;
  createdBy?: number;
}

/** A group shared with another (GitLab's group link): an item of its own, mirrored in the shared group's `shares`. */
export interface ShareRecord {
  sharedGroupId: number;
  withGroupId: number;
  groupAccess: number;
  expiresAt: string | null;
  createdAt: string;
}

/**
 * The shares of a group (or of a project: its project group links), kept on the container item
 * (invited group id → share) so that an access check reads them with the container's GetItem rather
 * than a Query.
 */
export interface SharedGroup {
  id: number;
  shares?: Record<string, Omit<ShareRecord, "sharedGroupId" | "withGroupId">>;
}

/** Whether a membership's or share's `expires_at` day has come. */
export const expired = (expiresAt: string | null) => !!expiresAt && new Date().toISOString().slice(0, 10) >= expiresAt;

/** The member's level, or 0 once its membership has expired. */
export function activeLevel(m: MemberRecord | undefined): number {
  if (!m || expired(m.expiresAt)) return 0;
  return m.accessLevel;
}

/** The shares of a group (or a project: `sharedGroupId` is then its id) that have not expired, by invited group id. */
export function activeShares(group: SharedGroup | undefined): ShareRecord[] {
  if (!group) return [];
  return Object.entries(group.shares ?? {})
    .map(([withGroupId, share]) => ({ ...share, sharedGroupId: group.id, withGroupId: Number(withGroupId) }))
    .filter((s) => !expired(s.expiresAt))
    .sort((a, b) => a.withGroupId - b.withGroupId);
}

/** The active shares of each group of a chain, read with a GetItem per group. */
export async function chainShares(groupIds: number[]): Promise<ShareRecord[]> {
  const groups = await Promise.all(
    groupIds.map((g) => {
      const key = containerKey("group", g);
      return getItem<SharedGroup>(key.pk, key.sk, false);
    }),
  );
  return groups.flatMap(activeShares);
}

export async function directLevel(kind: "project" | "group", containerId: number, userId: number): Promise<number> {
  const key = memberKey(kind, containerId, userId);
  return activeLevel(await getItem<MemberRecord>(key.pk, key.sk, false));
}

/**
 * Highest level over a group and its ancestors (`groupIds`, nearest first): memberships, and direct
 * memberships of the groups they (or, `ownShares`, a project of theirs) are shared with, each capped
 * at its share's `group_access` (GitLab gives an invited group's direct members the lower of the two).
 */
export async function groupChainLevel(groupIds: number[], userId: number, ownShares: ShareRecord[] = []): Promise<number> {
  const [levels, shares] = await Promise.all([Promise.all(groupIds.map((g) => directLevel("group", g, userId))), chainShares(groupIds)]);
  const shared = await Promise.all([...ownShares, ...shares].map(async (s) => Math.min(s.groupAccess, await directLevel("group", s.withGroupId, userId))));
  return Math.max(0, ...levels, ...shared);
}

export interface ProjectAccessSubject {
  id: number;
  visibility: Visibility;
  namespaceKind: "user" | "group";
  namespaceOwnerId?: number;
  /** The namespace group followed by its ancestors. */
  groupIds: number[];
  /** The groups the project itself is shared with (the project item's `shares`). */
  shares?: SharedGroup["shares"];
}

export async function projectLevel(principal: Principal | undefined, project: ProjectAccessSubject): Promise<number> {
  if (!principal) return 0;
  const user = principal.user;
  if (user.admin) return AccessLevel.owner;
  if (project.namespaceKind === "user" && project.namespaceOwnerId === user.id) return AccessLevel.owner;
  const [direct, inherited] = await Promise.all([directLevel("project", project.id, user.id), groupChainLevel(project.groupIds, user.id, activeShares(project))]);
  return Math.max(direct, inherited);
}

export function canSee(principal: Principal | undefined, visibility: Visibility, level: number): boolean {
  if (visibility === "public") return true;
  if (visibility === "internal") return !!principal;
  return level >= AccessLevel.guest;
}
