/**
 * Group lists as Queries: all groups (admin), or the groups a user reaches by membership (with their
 * subgroups) merged with public/internal groups; and the projects a user reaches through its groups.
 */
import { getItems, queryAll, queryPage, GSI1 } from "../../platform/db/table.js";
import type { Principal } from "../../identity/domain/auth.js";
import { groupCount, groupLevel, groupSearchText, type Group } from "./groups.js";
import { activeLevel, canSee, expired, type MemberRecord, type ShareRecord, type Visibility } from "./access.js";
import { containerKey, sharedWithIndexPk } from "./keys.js";

/** GitLab's group list filters: `search` (name or path, any case) and `skip_groups`. */
export interface GroupFilters {
  search?: string;
  skip?: ReadonlySet<number>;
}

/** The filters of lists over a few known groups (subgroups, shares): also a visibility and the caller's least level. */
export interface KnownGroupFilters extends GroupFilters {
  visibility?: Visibility;
  minAccessLevel?: number;
}

const matches = (g: Group, f: GroupFilters) => !f.skip?.has(g.id) && (!f.search || groupSearchText(g).includes(f.search.toLowerCase()));

/** DynamoDB's `IN` takes at most 100 values; longer skip lists are ANDed in chunks. */
function filterExpression(f: GroupFilters) {
  const parts: string[] = [];
  const values: Record<string, unknown> = {};
  if (f.search) {
    parts.push("contains(searchText, :search)");
    values[":search"] = f.search.toLowerCase();
  }
  const skip = [...(f.skip ?? [])];
  for (let i = 0; i < skip.length; i += 100) {
    const names = skip.slice(i, i + 100).map((id, j) => ((values[`:s${i + j}`] = id), `:s${i + j}`));
    parts.push(`NOT (#gid IN (${names.join(", ")}))`);
  }
  return parts.length ? { expression: parts.join(" AND "), values, names: skip.length ? { "#gid": "id" } : undefined } : undefined;
}

/**
 * A page of groups and, where it comes without counting, their total: the administrator's unfiltered
 * list from the group counter; anyone else's when the public/internal groups all fit in what was read
 * anyway. The administrator's filters run inside the Query; anyone else's on the groups read.
 */
export async function listGroups(principal: Principal | undefined, offset: number, limit: number, filters: GroupFilters = {}): Promise<{ groups: Group[]; hasMore: boolean; total?: number }> {
  const filter = filterExpression(filters);
  if (principal?.user.admin) {
    const [page, total] = await Promise.all([queryPage<Group>({ index: GSI1, pk: "GROUPS", offset, limit, ascending: true, filter }), filter ? undefined : groupCount()]);
    return { groups: page.items, hasMore: page.hasMore, total };
  }
  const ids = new Set<number>();
  if (principal) (await groupIdsReachedBy(principal.user.id)).forEach((id) => ids.add(id));
  // Filtered, every public/internal group is a candidate; unfiltered, the first page's worth is enough.
  const open = await queryPage<{ sk: string; visibility: Visibility }>({ pk: "VISIBLE#group", offset: 0, limit: filter ? Number.MAX_SAFE_INTEGER : offset + limit + 1, ascending: true });
  open.items.filter((m) => principal || m.visibility === "public").forEach((m) => ids.add(Number(m.sk)));
  const ordered = [...ids].filter((id) => !filters.skip?.has(id)).sort((a, b) => a - b);
  if (!filters.search) {
    const groups = (await getItems<Group>(ordered.slice(offset, offset + limit).map((id) => containerKey("group", id)))).filter((g): g is Group => !!g);
    return { groups, hasMore: ordered.length > offset + limit, total: open.hasMore ? undefined : ordered.length };
  }
  const found = (await getItems<Group>(ordered.map((id) => containerKey("group", id)))).filter((g): g is Group => !!g && matches(g, filters));
  return { groups: found.slice(offset, offset + limit), hasMore: found.length > offset + limit, total: found.length };
}

/**
 * A group's subgroups (`descendants`: at every depth, GitLab's `descendant_groups`) that the caller
 * can see, by id: one Query per group for its children, level by level.
 */
export async function listSubgroups(principal: Principal | undefined, parent: Group, descendants: boolean, filters: GroupFilters): Promise<Group[]> {
  const ids: number[] = [];
  for (let frontier = [parent.id]; frontier.length > 0; ) {
    const children = (await Promise.all(frontier.map(childGroupIds))).flat();
    ids.push(...children);
    frontier = descendants ? children : [];
  }
  return visibleGroupsAmong(principal, ids, filters);
}

/** The groups among `ids` that exist, match the filters and the caller can see, by id: one batched read. */
export async function visibleGroupsAmong(principal: Principal | undefined, ids: number[], filters: KnownGroupFilters): Promise<Group[]> {
  const groups = (await getItems<Group>([...new Set(ids)].map((id) => containerKey("group", id)))).filter(
    (g): g is Group => !!g && matches(g, filters) && (!filters.visibility || g.visibility === filters.visibility),
  );
  const levels = await Promise.all(groups.map((g) => groupLevel(principal, g)));
  const wanted = (g: Group, i: number) => canSee(principal, g.visibility, levels[i]!) && levels[i]! >= (filters.minAccessLevel ?? 0);
  return groups.filter(wanted).sort((a, b) => a.id - b.id);
}

const childIds = async (groupId: number, kind: "group" | "project") =>
  (await queryAll<{ sk: string }>({ pk: `GROUP#${groupId}`, skPrefix: `CHILD#${kind}#` })).map((item) => childId(item.sk));
const childGroupIds = (groupId: number) => childIds(groupId, "group");

/**
 * A group and every group below it (parents before children), and the ids of their projects: one
 * Query per group and kind. Without `subgroups`, the group alone and its own projects.
 */
export async function groupSubtree(groupId: number, subgroups = true): Promise<{ groups: number[]; projects: number[] }> {
  const groups: number[] = [];
  const projects: number[] = [];
  for (let level = [groupId]; level.length > 0; ) {
    groups.push(...level);
    const [own, below] = await Promise.all([Promise.all(level.map((g) => childIds(g, "project"))), subgroups ? Promise.all(level.map(childGroupIds)) : []]);
    projects.push(...own.flat());
    level = below.flat();
  }
  return { groups, projects };
}

/** Whether a group still holds projects or subgroups (checked before deletion). */
export async function groupHasChildren(groupId: number): Promise<boolean> {
  const page = await queryPage({ pk: `GROUP#${groupId}`, skPrefix: "CHILD#", offset: 0, limit: 1 });
  return page.items.length > 0;
}

const childId = (sk: string) => Number(sk.split("#").pop());

/**
 * The groups a user is an active member of, the groups shared with those (GitLab's authorized
 * groups; at the lower of the two levels), and all their subgroups: inherited membership reaches
 * down the tree. One Query per direct membership for its shares, one per group for its subgroups.
 */
export async function groupIdsReachedBy(userId: number, minLevel = 1): Promise<number[]> {
  const memberships = (await queryAll<MemberRecord & { gsi1sk: string }>({ index: GSI1, pk: `USER#${userId}#GROUPS` })).filter((m) => activeLevel(m) >= minLevel);
  const shares = await Promise.all(memberships.map((m) => queryAll<ShareRecord>({ index: GSI1, pk: sharedWithIndexPk(Number(m.gsi1sk)) })));
  const sharedIn = shares.flatMap((list, i) => list.filter((s) => Math.min(s.groupAccess, activeLevel(memberships[i])) >= minLevel && !expired(s.expiresAt)));
  const seen = new Set<number>();
  for (let frontier = [...memberships.map((m) => Number(m.gsi1sk)), ...sharedIn.map((s) => s.sharedGroupId)]; frontier.length > 0; ) {
    const groups = frontier.filter((g) => !seen.has(g));
    groups.forEach((g) => seen.add(g));
    frontier = (await Promise.all(groups.map(childGroupIds))).flat();
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
