/**
 * Group lists as Queries: all groups (admin), or the groups a user reaches by membership (with their
 * subgroups) merged with public/internal groups; and the projects a user reaches through its groups.
 */
import { queryAll, queryPage, GSI1 } from "../../platform/db/table.js";
import type { Principal } from "../../identity/domain/auth.js";
import { findGroup, groupCount, type Group } from "./groups.js";
import { activeLevel, type MemberRecord, type Visibility } from "./access.js";

/**
 * A page of groups and, where it comes without counting, their total: the administrator's from the
 * group counter; anyone else's when the public/internal groups all fit in what was read anyway.
 */
export async function listGroups(principal: Principal | undefined, offset: number, limit: number): Promise<{ groups: Group[]; hasMore: boolean; total?: number }> {
  if (principal?.user.admin) {
    const [page, total] = await Promise.all([queryPage<Group>({ index: GSI1, pk: "GROUPS", offset, limit, ascending: true }), groupCount()]);
    return { groups: page.items, hasMore: page.hasMore, total };
  }
  const want = offset + limit + 1;
  const ids = new Set<number>();
  if (principal) (await groupIdsReachedBy(principal.user.id)).forEach((id) => ids.add(id));
  const open = await queryPage<{ sk: string; visibility: Visibility }>({ pk: "VISIBLE#group", offset: 0, limit: want, ascending: true });
  open.items.filter((m) => principal || m.visibility === "public").forEach((m) => ids.add(Number(m.sk)));
  const ordered = [...ids].sort((a, b) => a - b);
  const groups = (await Promise.all(ordered.slice(offset, offset + limit).map(findGroup))).filter((g): g is Group => !!g);
  return { groups, hasMore: ordered.length > offset + limit, total: open.hasMore ? undefined : ordered.length };
}

/** Whether a group still holds projects or subgroups (checked before deletion). */
export async function groupHasChildren(groupId: number): Promise<boolean> {
  const page = await queryPage({ pk: `GROUP#${groupId}`, skPrefix: "CHILD#", offset: 0, limit: 1 });
  return page.items.length > 0;
}

const childId = (sk: string) => Number(sk.split("#").pop());

/**
 * The groups a user is an active member of, and all their subgroups: GitLab's inherited membership
 * reaches down the tree. One Query per group for its subgroups, level by level.
 */
async function groupIdsReachedBy(userId: number, minLevel = 1): Promise<number[]> {
  const memberships = await queryAll<MemberRecord & { gsi1sk: string }>({ index: GSI1, pk: `USER#${userId}#GROUPS` });
  const seen = new Set<number>();
  for (let frontier = memberships.filter((m) => activeLevel(m) >= minLevel).map((m) => Number(m.gsi1sk)); frontier.length > 0; ) {
    const groups = frontier.filter((g) => !seen.has(g));
    groups.forEach((g) => seen.add(g));
    const subgroups = await Promise.all(groups.map((g) => queryAll<{ sk: string }>({ pk: `GROUP#${g}`, skPrefix: "CHILD#group#" })));
    frontier = subgroups.flat().map((item) => childId(item.sk));
  }
  return [...seen];
}

/**
 * Ids of the projects a user is a member of through a group (`groupIdsReachedBy`), at most `want`
 * per group, newest first within each; with `minLevel`, only through groups held at that level or above.
 */
export async function projectIdsThroughGroups(userId: number, want: number, minLevel = 1): Promise<number[]> {
  const groups = await groupIdsReachedBy(userId, minLevel);
  const pages = await Promise.all(groups.map((g) => queryPage<{ sk: string }>({ pk: `GROUP#${g}`, skPrefix: "CHILD#project#", offset: 0, limit: want })));
  return pages.flatMap((page) => page.items.map((item) => childId(item.sk)));
}
