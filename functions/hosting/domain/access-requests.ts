/**
 * Requests to join a project or group (GitLab's access requesters): a user who may see the container
 * and has no access to it asks; a manager of its members approves (a direct membership, at a level
 * of their choosing) or denies; the requester may withdraw. Who may do what is decided by the HTTP
 * adapter with the caller's level; these are the records.
 */
import { countRange, deleteItem, getItem, isConditionFailure, putItem, queryAll, queryPage, transact } from "../../platform/db/table.js";
import { conflict, forbidden, notFound, validationError } from "../../platform/http/errors.js";
import { basicUser, type User } from "../../identity/domain/users.js";
import type { MemberRecord } from "./access.js";
import { accessRequestKey, accessRequestsRange } from "./keys.js";
import { mayGrant, memberItem, withUsers, type Found, type MemberKind } from "./members.js";

export interface AccessRequestRecord {
  userId: number;
  requestedAt: string;
}

/** `POST …/access_requests`: a second request is GitLab's validation error of the member record. */
export async function requestAccess(kind: MemberKind, containerId: number, user: User): Promise<{ user: User; record: AccessRequestRecord }> {
  const record: AccessRequestRecord = { userId: user.id, requestedAt: new Date().toISOString() };
  try {
    await putItem({ ...accessRequestKey(kind, containerId, user.id), type: `${kind}-access-request`, ...record }, { expression: "attribute_not_exists(pk)" });
  } catch (err) {
    if (isConditionFailure(err)) throw validationError({ user_id: ["already exists in source"] });
    throw err;
  }
  return { user, record };
}

const MAX_COUNTED_REQUESTS = 10_000;

/** A page of the container's pending requests, oldest requester id first, with the total as member lists count it. */
export async function listAccessRequests(kind: MemberKind, containerId: number, offset: number, limit: number) {
  const range = accessRequestsRange(kind, containerId);
  const page = await queryPage<AccessRequestRecord>({ ...range, ascending: true, offset, limit });
  const total = page.hasMore ? await countRange(range, MAX_COUNTED_REQUESTS) : offset + page.items.length;
  return { requests: await withUsers(page.items), hasMore: page.hasMore, total };
}

async function findRequest(kind: MemberKind, containerId: number, userId: number): Promise<AccessRequestRecord> {
  const key = accessRequestKey(kind, containerId, userId);
  const request = await getItem<AccessRequestRecord>(key.pk, key.sk);
  // GitLab looks the requester up with `find_by!`: none is its generic `404 Not found`.
  if (!request) throw notFound();
  return request;
}

/**
 * `PUT …/access_requests/:user_id/approve`: the request becomes a direct membership at `accessLevel`
 * (created when it was requested, by the approver, as GitLab's member row keeps its creation), in one
 * transaction. GitLab finds the request first, then refuses (403) an approver who does not manage the
 * members (`manages`) or grants beyond GitLab's rule (`mayGrant`).
 */
export async function approveAccessRequest(
  kind: MemberKind,
  containerId: number,
  userId: number,
  accessLevel: number,
  approver: { level: number; manages: boolean; user: User },
): Promise<Found> {
  const request = await findRequest(kind, containerId, userId);
  if (!approver.manages || !mayGrant(approver.level, accessLevel)) throw forbidden();
  const record: MemberRecord = { userId, accessLevel, expiresAt: null, createdAt: request.requestedAt, createdBy: approver.user.id };
  try {
    await transact([
      { Delete: { Key: accessRequestKey(kind, containerId, userId), ConditionExpression: "attribute_exists(pk)" } },
      { Put: { Item: memberItem(kind, containerId, record), ConditionExpression: "attribute_not_exists(pk)" } },
    ]);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // Approved or denied meanwhile, or the user was added as a member meanwhile.
    await findRequest(kind, containerId, userId);
    throw conflict("Member already exists");
  }
  const [member] = await withUsers([record]);
  if (!member) throw notFound();
  return { ...member, creator: approver.user };
}

/**
 * `DELETE …/access_requests/:user_id`: denied by a manager of the members, or withdrawn by the
 * requester (403 for anyone else); `404 Not found` without one.
 */
export async function deleteAccessRequest(kind: MemberKind, containerId: number, userId: number, caller: { manages: boolean; userId: number }): Promise<void> {
  const key = accessRequestKey(kind, containerId, userId);
  await findRequest(kind, containerId, userId);
  if (!caller.manages && caller.userId !== userId) throw forbidden();
  await deleteItem(key.pk, key.sk);
}

/** A deleted container's pending requests. */
export async function removeAccessRequestsOf(kind: MemberKind, containerId: number): Promise<void> {
  const requests = await queryAll<{ pk: string; sk: string }>({ ...accessRequestsRange(kind, containerId), projection: ["pk", "sk"] });
  await Promise.all(requests.map((r) => deleteItem(r.pk, r.sk)));
}

/** GitLab's `AccessRequester` entity: the user (`UserBasic`) and when it asked. */
export const accessRequesterView = (found: { user: User; record: AccessRequestRecord }, baseUrl: string) => ({ ...basicUser(found.user, baseUrl), requested_at: found.record.requestedAt });
