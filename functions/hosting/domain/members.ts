/** Project and group membership with GitLab's access levels (10 Guest … 50 Owner). */
import { countRange, getItem, getItems, putItem, deleteItem, isConditionFailure, queryAll, queryPage, updateItem, type Item } from "../../platform/db/table.js";
import { conflict, forbidden, notFound } from "../../platform/http/errors.js";
import { findUser, findUsers, basicUser, type User } from "../../identity/domain/users.js";
import { AccessLevel, activeLevel, chainShares, type MemberRecord } from "./access.js";
import { memberKey, membershipsOfUserIndex } from "./keys.js";

export type MemberKind = "project" | "group";

/** A direct membership's item: the container's member range and the user's memberships index. */
export const memberItem = (kind: MemberKind, containerId: number, record: MemberRecord): Item => ({
  ...memberKey(kind, containerId, record.userId),
  ...membershipsOfUserIndex(kind, record.userId, containerId),
  type: `${kind}-member`,
  ...record,
});

/** GitLab's rule for granting a level: nobody grants more than they have, only Owners grant Owner. */
export const mayGrant = (actorLevel: number, level: number) => level <= actorLevel && (level < AccessLevel.owner || actorLevel >= AccessLevel.owner);

export async function addMember(kind: MemberKind, containerId: number, actorLevel: number, input: { userId: number; accessLevel: number; expiresAt?: string | null }, actor: User): Promise<Found> {
  if (!mayGrant(actorLevel, input.accessLevel)) throw forbidden();
  const user = await findUser(input.userId);
  if (!user) throw notFound("User");
  const record: MemberRecord = { userId: input.userId, accessLevel: input.accessLevel, expiresAt: input.expiresAt ?? null, createdAt: new Date().toISOString(), createdBy: actor.id };
  try {
    await putItem(memberItem(kind, containerId, record), { expression: "attribute_not_exists(pk)" });
  } catch (err) {
    if (isConditionFailure(err)) throw conflict("Member already exists");
    throw err;
  }
  return { user, record, creator: actor };
}

/** Direct membership used when a project is created (so it shows up in its creator's list). */
export async function grantInitialMembership(kind: MemberKind, containerId: number, userId: number, accessLevel: number) {
  await putItem(memberItem(kind, containerId, { userId, accessLevel, expiresAt: null, createdAt: new Date().toISOString() }));
}

/** GitLab finds the member with `find_by!`: its answer for none is the generic `404 Not found`. */
export async function removeMember(kind: MemberKind, containerId: number, userId: number, actorLevel: number) {
  const key = memberKey(kind, containerId, userId);
  const existing = await getItem<MemberRecord>(key.pk, key.sk);
  if (!existing) throw notFound();
  if (existing.accessLevel > actorLevel) throw forbidden();
  await deleteItem(key.pk, key.sk);
}

/**
 * GitLab's `POST /projects/:id/import_project_members/:project_id` (`ProjectTeam#import`): every
 * direct member of the source that is not one of the target's comes in with its expiry, at the lower
 * of its level and the importer's (a Maintainer imports Owners as Maintainers), created by the
 * importer. Expired memberships stay behind. Answers how many it copied.
 */
export async function importMembers(sourceProjectId: number, targetProjectId: number, actorLevel: number, actorId: number): Promise<number> {
  const source = (await queryAll<MemberRecord>({ pk: memberKey("project", sourceProjectId, 0).pk, skPrefix: "MEMBER#" })).filter((m) => activeLevel(m) > 0);
  const now = new Date().toISOString();
  const imported = await Promise.all(
    source.map(async (m) => {
      const record: MemberRecord = { userId: m.userId, accessLevel: Math.min(m.accessLevel, actorLevel), expiresAt: m.expiresAt, createdAt: now, createdBy: actorId };
      // A member the target has already keeps its own membership.
      return putItem(memberItem("project", targetProjectId, record), { expression: "attribute_not_exists(pk)" }).then(
        () => true,
        (err: unknown) => {
          if (isConditionFailure(err)) return false;
          throw err;
        },
      );
    }),
  );
  return imported.filter(Boolean).length;
}

const MAX_COUNTED_MEMBERS = 10_000;

export type Found = { user: User; record: MemberRecord; creator?: User };

/** The records' users and creators (GitLab's `created_by`), one batched read; members whose user is gone drop out. */
export async function withUsers<R extends { userId: number; createdBy?: number }>(records: R[]): Promise<Array<{ user: User; record: R; creator?: User }>> {
  const ids = [...new Set(records.flatMap((m) => [m.userId, ...(m.createdBy ? [m.createdBy] : [])]))];
  const users = new Map((await findUsers(ids)).flatMap((u) => (u ? [[u.id, u] as const] : [])));
  return records.flatMap((record) => {
    const user = users.get(record.userId);
    const creator = record.createdBy ? users.get(record.createdBy) : undefined;
    return user ? [{ user, record, ...(creator ? { creator } : {}) }] : [];
  });
}

/** One direct member; GitLab's `find_by!` answers `404 Not found` without one. */
export async function findMember(kind: MemberKind, containerId: number, userId: number): Promise<Found> {
  const key = memberKey(kind, containerId, userId);
  const [found] = await withUsers([await getItem<MemberRecord>(key.pk, key.sk)].filter((m): m is MemberRecord => !!m));
  if (!found) throw notFound();
  return found;
}

/** `PUT …/members/:user_id`: a level (not above the actor's; Owner only from Owners) and `expires_at`. */
export async function updateMember(kind: MemberKind, containerId: number, actorLevel: number, userId: number, changes: { accessLevel: number; expiresAt?: string | null }): Promise<Found> {
  const existing = await findMember(kind, containerId, userId);
  if (!mayGrant(actorLevel, changes.accessLevel) || existing.record.accessLevel > actorLevel) throw forbidden();
  const key = memberKey(kind, containerId, userId);
  const expiresAt = changes.expiresAt === undefined ? existing.record.expiresAt : changes.expiresAt;
  await updateItem({ ...key, update: "SET accessLevel = :l, expiresAt = :e", values: { ":l": changes.accessLevel, ":e": expiresAt }, condition: "attribute_exists(pk)" });
  return { ...existing, record: { ...existing.record, accessLevel: changes.accessLevel, expiresAt } };
}

/** The direct members among `userIds` (GitLab's `user_ids` filter), by user id: one batched read. */
export async function listMembersByIds(kind: MemberKind, containerId: number, userIds: number[]): Promise<Found[]> {
  const ids = [...new Set(userIds)].sort((a, b) => a - b);
  const records = await getItems<MemberRecord>(ids.map((id) => memberKey(kind, containerId, id)));
  return withUsers(records.filter((m): m is MemberRecord => !!m));
}

/**
 * GitLab's `members/all`: direct members, members of the group chain (`groupIds`, nearest first),
 * and direct members of the groups the container (`ownShares`, a project's) or the chain is shared
 * with, at the lower of their level and the share's. One entry per user: the highest level, the
 * nearest source on a tie. Expired memberships are left out.
 */
export async function listAllMembers(
  kind: MemberKind,
  containerId: number,
  groupIds: number[],
  userIds?: number[],
  ownShares: Array<{ withGroupId: number; groupAccess: number }> = [],
): Promise<Found[]> {
  const sources: Array<{ kind: MemberKind; id: number; cap?: number }> = [{ kind, id: containerId }, ...groupIds.filter((g) => kind === "project" || g !== containerId).map((id) => ({ kind: "group" as const, id }))];
  const shares = [...ownShares, ...(await chainShares(groupIds))];
  sources.push(...shares.map((s) => ({ kind: "group" as const, id: s.withGroupId, cap: s.groupAccess })));
  const wanted = userIds ? new Set(userIds) : undefined;
  const lists = await Promise.all(
    sources.map(async (source) =>
      wanted
        ? (await getItems<MemberRecord>([...wanted].map((u) => memberKey(source.kind, source.id, u)))).filter((m): m is MemberRecord => !!m)
        : queryAll<MemberRecord>({ pk: `${source.kind.toUpperCase()}#${source.id}`, skPrefix: "MEMBER#" }),
    ),
  );
  const best = new Map<number, MemberRecord>();
  lists.forEach((list, i) => {
    for (const m of list) {
      const level = Math.min(activeLevel(m), sources[i]!.cap ?? AccessLevel.owner);
      if (level > (best.get(m.userId)?.accessLevel ?? 0)) best.set(m.userId, { ...m, accessLevel: level });
    }
  });
  return withUsers([...best.values()].sort((a, b) => a.userId - b.userId));
}

export async function listMembers(kind: MemberKind, containerId: number, offset: number, limit: number) {
  const range = { pk: `${kind.toUpperCase()}#${containerId}`, skPrefix: "MEMBER#" };
  const page = await queryPage<MemberRecord>({ ...range, ascending: true, offset, limit });
  // The total: the page itself tells it on the last page; otherwise DynamoDB counts the container's
  // member range (one partition, nothing returned), omitted above GitLab's 10,000.
  const total = page.hasMore ? await countRange(range, MAX_COUNTED_MEMBERS) : offset + page.items.length;
  return {
    members: await withUsers(page.items),
    hasMore: page.hasMore,
    total,
  };
}

export function memberView(member: Found, baseUrl: string) {
  return {
    ...basicUser(member.user, baseUrl),
    access_level: member.record.accessLevel,
    created_at: member.record.createdAt,
    // GitLab leaves it out when nobody is recorded (a creator's own membership).
    ...(member.creator ? { created_by: basicUser(member.creator, baseUrl) } : {}),
    expires_at: member.record.expiresAt,
    membership_state: "active",
  };
}
