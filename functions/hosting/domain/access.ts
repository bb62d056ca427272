/**
 * GitLab access levels and visibility. A caller's level on a project is the highest of: its direct
 * membership, its membership of the project's group or any ancestor group, ownership of the personal
 * namespace, and admin (treated as Owner). A resource the caller may not see answers 404, never 403.
 */
import { getItem } from "../../platform/db/table.js";
import type { Principal } from "../../identity/domain/auth.js";
import { memberKey } from "./keys.js";

export const AccessLevel = { none: 0, guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;
export const ACCESS_LEVELS = [10, 20, 30, 40, 50] as const;
export type Visibility = "private" | "internal" | "public";

export interface MemberRecord {
  userId: number;
  accessLevel: number;
  expiresAt: string | null;
  createdAt: string;
  createdBy?: number;
}

/** The member's level, or 0 once its membership has expired. */
export function activeLevel(m: MemberRecord | undefined): number {
  if (!m) return 0;
  if (m.expiresAt && new Date().toISOString().slice(0, 10) >= m.expiresAt) return 0;
  return m.accessLevel;
}

export async function directLevel(kind: "project" | "group", containerId: number, userId: number): Promise<number> {
  const key = memberKey(kind, containerId, userId);
  return activeLevel(await getItem<MemberRecord>(key.pk, key.sk, false));
}

/** Highest membership level over a group and its ancestors (`groupIds`, nearest first). */
export async function groupChainLevel(groupIds: number[], userId: number): Promise<number> {
  const levels = await Promise.all(groupIds.map((g) => directLevel("group", g, userId)));
  return Math.max(0, ...levels);
}

export interface ProjectAccessSubject {
  id: number;
  visibility: Visibility;
  namespaceKind: "user" | "group";
  namespaceOwnerId?: number;
  /** The namespace group followed by its ancestors. */
  groupIds: number[];
}

export async function projectLevel(principal: Principal | undefined, project: ProjectAccessSubject): Promise<number> {
  if (!principal) return 0;
  const user = principal.user;
  if (user.admin) return AccessLevel.owner;
  if (project.namespaceKind === "user" && project.namespaceOwnerId === user.id) return AccessLevel.owner;
  const [direct, inherited] = await Promise.all([directLevel("project", project.id, user.id), groupChainLevel(project.groupIds, user.id)]);
  return Math.max(direct, inherited);
}

export function canSee(principal: Principal | undefined, visibility: Visibility, level: number): boolean {
  if (visibility === "public") return true;
  if (visibility === "internal") return !!principal;
  return level >= AccessLevel.guest;
}
