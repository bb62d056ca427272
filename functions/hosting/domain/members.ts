/** Project and group membership with GitLab's access levels (10 Guest … 50 Owner). */
import { countRange, getItem, putItem, deleteItem, queryPage } from "../../platform/db/table.js";
import { conflict, forbidden, notFound } from "../../platform/http/errors.js";
import { findUser, basicUser } from "../../identity/domain/users.js";
import { AccessLevel, type MemberRecord } from "./access.js";
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

export async function listMembers(kind: MemberKind, containerId: number, offset: number, limit: number) {
  const range = { pk: `${kind.toUpperCase()}#${containerId}`, skPrefix: "MEMBER#" };
  const page = await queryPage<MemberRecord>({ ...range, ascending: true, offset, limit });
  const users = await Promise.all(page.items.map((m) => findUser(m.userId)));
  // The total: the page itself tells it on the last page; otherwise DynamoDB counts the container's
  // member range (one partition, nothing returned), omitted above GitLab's 10,000.
  const total = page.hasMore ? await countRange(range, MAX_COUNTED_MEMBERS) : offset + page.items.length;
  return {
    members: page.items.flatMap((m, i) => (users[i] ? [{ user: users[i]!, record: m }] : [])),
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
