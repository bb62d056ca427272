/**
 * GitLab's namespace list, ordered by namespace id as GitLab's pagination orders it: an
 * administrator's is every group (the groups index) followed by every user's namespace (the users
 * index) — user namespace ids are above every group id; anyone else's is the groups they are a
 * direct member of and their own namespace (GitLab's `User#namespaces`). Queries only.
 */
import type { Principal } from "../../identity/domain/auth.js";
import { listUsers, searchUsers, toUser, type User } from "../../identity/domain/users.js";
import { countRange, queryAll, queryPage, GSI1 } from "../../platform/db/table.js";
import { AccessLevel, activeLevel, type MemberRecord } from "./access.js";
import { findGroup, groupCount, type Group } from "./groups.js";
import { groupNamespace, userNamespace, type Namespace } from "./namespaces.js";

export interface NamespaceFilter {
  /** A case-insensitive substring of the name or path. */
  search?: string;
  /** Only namespaces the caller owns (ignored for administrators, as GitLab does). */
  ownedOnly?: boolean;
  /** Only top-level namespaces (GitLab 16.8's `top_level_only`). */
  topLevelOnly?: boolean;
}

export interface NamespacePage {
  namespaces: Namespace[];
  hasMore: boolean;
  total?: number;
}

export async function listNamespaces(principal: Principal, filter: NamespaceFilter, offset: number, limit: number): Promise<NamespacePage> {
  if (!principal.user.admin) return pageOf(await ownNamespaces(principal, filter), offset, limit);
  if (filter.search !== undefined || filter.topLevelOnly) return pageOf(await allNamespacesMatching(filter), offset, limit);
  return allNamespacesPage(offset, limit);
}

function pageOf(all: Namespace[], offset: number, limit: number): NamespacePage {
  return { namespaces: all.slice(offset, offset + limit), hasMore: all.length > offset + limit, total: all.length };
}

const matches = (ns: Namespace, filter: NamespaceFilter) =>
  (!filter.topLevelOnly || ns.parentId === null) &&
  (filter.search === undefined || [ns.name, ns.path].some((v) => v.toLowerCase().includes(filter.search!.toLowerCase())));

/** The caller's direct group memberships (Owner only with `ownedOnly`) and its own namespace. */
async function ownNamespaces(principal: Principal, filter: NamespaceFilter): Promise<Namespace[]> {
  const memberships = await queryAll<MemberRecord & { gsi1sk: string }>({ index: GSI1, pk: `USER#${principal.user.id}#GROUPS` });
  const minLevel = filter.ownedOnly ? AccessLevel.owner : AccessLevel.guest;
  const groupIds = memberships.filter((m) => activeLevel(m) >= minLevel).map((m) => Number(m.gsi1sk));
  const groups = (await Promise.all(groupIds.map(findGroup))).filter((g): g is Group => !!g);
  return [...groups.sort((a, b) => a.id - b.id).map(groupNamespace), userNamespace(principal.user)].filter((ns) => matches(ns, filter));
}

/** Every namespace that passes the filter: the groups index and the users index read whole. */
async function allNamespacesMatching(filter: NamespaceFilter): Promise<Namespace[]> {
  const [groups, users] = await Promise.all([
    queryAll<Group>({ index: GSI1, pk: "GROUPS" }),
    filter.search !== undefined ? searchUsers(filter.search, false) : queryAll<User>({ index: GSI1, pk: "USERS" }).then((items) => items.map(toUser)),
  ]);
  // Users' namespaces are all top-level, and the users' own search already matched username and name.
  return [...groups.map(groupNamespace).filter((ns) => matches(ns, filter)), ...users.sort((a, b) => a.id - b.id).map(userNamespace)];
}

/**
 * An administrator's page without filters, read as two consecutive ranges: the groups from `offset`,
 * then the users from where the groups end (the group counter says where, when the page starts
 * beyond the last group).
 */
async function allNamespacesPage(offset: number, limit: number): Promise<NamespacePage> {
  const groups = await queryPage<Group>({ index: GSI1, pk: "GROUPS", offset, limit, ascending: true });
  if (groups.hasMore) return { namespaces: groups.items.map(groupNamespace), hasMore: true };
  const groupTotal = groups.items.length > 0 || offset === 0 ? offset + groups.items.length : ((await groupCount()) ?? (await countRange({ index: GSI1, pk: "GROUPS" }, Number.MAX_SAFE_INTEGER))!);
  const users = await listUsers(Math.max(0, offset - groupTotal), limit - groups.items.length);
  return { namespaces: [...groups.items.map(groupNamespace), ...users.users.map(userNamespace)], hasMore: users.hasMore };
}
