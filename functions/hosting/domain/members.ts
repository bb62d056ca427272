/** Project and group membership with GitLab's access levels (10 Guest … 50 Owner). */
import { countRange, getItem, getItems, putItem, deleteItem, queryAll, queryPage, updateItem } from "../../platform/db/table.js";
import { conflict, forbidden, notFound } from "../../platform/http/errors.js";
import { findUser, basicUser } from "../../identity/domain/users.js";
import { AccessLevel, activeLevel, chainShares, type MemberRecord } from "./access.js";
import { memberKey, membershipsOfUserIndex } from "./keys.js";

export type MemberKind = "project" | "group";

export async function addMember(kind: MemberKind, containerId: number, actorLevel: number, input: { userId: number; accessLevel: number; expiresAt?: string | null }, actorId: number) {
  // Only Owners grant Owner; nobody grants more than they have (GitLab rule).
  if (input.accessLevel > actorLevel || (input.accessLevel === AccessLevel.owner && actorLevel < AccessLevel.owner)) throw forbidden();
  const user = await findUser(input.userId);
  if (!user) throw notFound("User");
  const key = memberKey(kind, containerId, input.userId);
  const record: MemberRecord = { userId: input.userId, accessLevel: input.accessLevel, expiresAt: input.expiresAt ?? null, createdAt: new Date().toISOString(), createdBy: actorId };
  try {
    await putItem({ ...key, ...membershipsOfUserIndex(kind, input.userId, containerId), type: `${kind}-member`, ...record }, { expression: "attribute_not_exists(pk)" });
  } catch (err) {
    if ((err as { name?: string }).name === "ConditionalCheckFailedException") throw conflict("Member already exists");
    throw err;
  }
  return { user, record };
}

/** Direct membership used when a project is created (so it shows up in its creator's list). */
export async function grantInitialMembership(kind: MemberKind, containerId: number, userId: number, accessLevel: number) {
  const key = memberKey(kind, containerId, userId);
  await putItem({ ...key, ...membershipsOfUserIndex(kind, userId, containerId), type: `${kind}-member`, userId, accessLevel, expiresAt: null, createdAt: new Date().toISOString() });
}

export async function removeMember(kind: MemberKind, containerId: number, userId: number, actorLevel: number) {
  const key = memberKey(kind, containerId, userId);
  const existing = await getItem<MemberRecord>(key.pk, key.sk);
  if (!existing) throw notFound("Member");
  if (existing.accessLevel > actorLevel) throw forbidden();
  await deleteItem(key.pk, key.sk);
}

const MAX_COUNTED_MEMBERS = 10_000;

type Found = { user: NonNullable<Awaited<ReturnType<typeof findUser>>>; record: MemberRecord };
const withUsers = async (records: MemberRecord[]): Promise<Found[]> => {
  const users = await Promise.all(records.map((m) => findUser(m.userId)));
  return records.flatMap((record, i) => (users[i] ? [{ user: users[i]!, record }] : []));
};

/** One direct member, `404 Member Not Found` without one. */
export async function findMember(kind: MemberKind, containerId: number, userId: number): Promise<Found> {
  const key = memberKey(kind, containerId, userId);
  const [found] = await withUsers([await getItem<MemberRecord>(key.pk, key.sk)].filter((m): m is MemberRecord => !!m));
  if (!found) throw notFound("Member");
  return found;
}

/** `PUT …/members/:user_id`: a level (not above the actor's; Owner only from Owners) and `expires_at`. */
export async function updateMember(kind: MemberKind, containerId: number, actorLevel: number, userId: number, changes: { accessLevel: number; expiresAt?: string | null }): Promise<Found> {
  const existing = await findMember(kind, containerId, userId);
  if (changes.accessLevel > actorLevel || existing.record.accessLevel > actorLevel || (changes.accessLevel === AccessLevel.owner && actorLevel < AccessLevel.owner)) throw forbidden();
  const key = memberKey(kind, containerId, userId);
  const expiresAt = changes.expiresAt === undefined ? existing.record.expiresAt : changes.expiresAt;
  await updateItem({ ...key, update: "SET accessLevel = :l, expiresAt = :e", values: { ":l": changes.accessLevel, ":e": expiresAt }, condition: "attribute_exists(pk)" });
  return { user: existing.user, record: { ...existing.record, accessLevel: changes.accessLevel, expiresAt } };
}

/** The direct members among `userIds` (GitLab's `user_ids` filter), by user id: one batched read. */
export async function listMembersByIds(kind: MemberKind, containerId: number, userIds: number[]): Promise<Found[]> {
  const ids = [...new Set(userIds)].sort((a, b) => a - b);
  const records = await getItems<MemberRecord>(ids.map((id) => memberKey(kind, containerId, id)));
  return withUsers(records.filter((m): m is MemberRecord => !!m));
}

/**
 * GitLab's `members/all`: direct members, members of the group chain (`groupIds`, nearest first),
 * and direct members of the groups those are shared with, at the lower of their level and the share's.
 * One entry per user: the highest level, the nearest source on a tie. Expired memberships are left out.
 */
export async function listAllMembers(kind: MemberKind, containerId: number, groupIds: number[], userIds?: number[]): Promise<Found[]> {
  const sources: Array<{ kind: MemberKind; id: number; cap?: number }> = [{ kind, id: containerId }, ...groupIds.filter((g) => kind === "project" || g !== containerId).map((id) => ({ kind: "group" as const, id }))];
  const shares = await chainShares(groupIds);
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

export function memberView(member: { user: Awaited<ReturnType<typeof findUser>> & object; record: MemberRecord }, baseUrl: string) {
  return {
    ...basicUser(member.user, baseUrl),
    access_level: member.record.accessLevel,
    created_at: member.record.createdAt,
    expires_at: member.record.expiresAt,
    membership_state: "active",
  };
}
