/** Groups (namespaces that hold projects and own a wiki repository). */
import { addToCount, getItem, isConditionFailure, nextId, readCount, transact, deleteItem, queryAll, GSI1, type TransactItem } from "../../platform/db/table.js";
import { validationError, badRequest, notFound } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import type { BranchProtection } from "../../identity/domain/branch-protection.js";
import { AccessLevel, canSee, groupChainLevel, type SharedGroup, type ShareRecord, type Visibility } from "./access.js";
import { removeProjectSharesWith, unshareWrites } from "./share-writes.js";
import { removeAccessRequestsOf } from "./access-requests.js";
import { allGroupsIndex, containerKey, groupChildKey, groupShareKey, memberKey, membershipsOfUserIndex, pathClaimKey, sharedWithIndexPk, sharesOfGroupRange, visibleMarkerKey } from "./keys.js";

/** A group item; `shares` (access.ts) holds the groups it is shared with. */
export interface Group extends SharedGroup {
  id: number;
  name: string;
  path: string;
  fullPath: string;
  /**
   * GitLab's `full_name`: the names of its ancestors and its own, `Parent / Child`. Absent on groups
   * written before it was kept, until their next rename or transfer (`groupFullName` falls back).
   */
  fullName?: string;
  description: string;
  visibility: Visibility;
  parentId: number | null;
  /** Ancestors, nearest first (for inherited membership). */
  ancestorIds: number[];
  createdAt: string;
  /** Wiki repository, once the first page exists. */
  storage?: string;
  relativePath?: string;
  readOnly?: boolean;
  /** Day the group was marked for deletion with its contents (`group-deletion.ts`), until the job deletes it. */
  markedForDeletionOn?: string;
  /** Whether users may ask to join (GitLab's `request_access_enabled`); absent: true. */
  requestAccessEnabled?: boolean;
  /** GitLab's `share_with_group_lock`: its projects and its subgroups' cannot be shared with other groups. */
  shareWithGroupLock?: boolean;
  /** Its own default branch protection for new projects (`protected-refs.ts`); absent: the instance's. */
  branchProtection?: BranchProtection;
}

/**
 * GitLab's `full_name`, a group namespace's human name (its projects' `name_with_namespace` starts
 * with it). An item written before the full name was kept has only its own name: a subgroup's then
 * starts with its ancestors' paths (what its item holds of them, `fullPath`), never without them. A
 * user namespace (no `/` in its path) is its own name.
 */
export const groupFullName = (g: Pick<Group, "name" | "fullName" | "fullPath">) => g.fullName ?? [...g.fullPath.split("/").slice(0, -1), g.name].join(" / ");

/** The settings a group is created with or changes (GitLab's names in `groupView`). */
export type GroupSettings = Partial<Pick<Group, "requestAccessEnabled" | "shareWithGroupLock" | "branchProtection">>;

/** What `search` matches (name or path, in any case), kept on the group item so list Queries filter on it. */
export const groupSearchText = (g: Pick<Group, "name" | "path">) => `${g.name}\n${g.path}`.toLowerCase();

export async function findGroup(id: number): Promise<Group | undefined> {
  const key = containerKey("group", id);
  return getItem<Group>(key.pk, key.sk);
}

export async function findGroupByPath(fullPath: string): Promise<Group | undefined> {
  const claim = await getItem<{ kind: string; ownerId: number }>(pathClaimKey(fullPath).pk, "NAMESPACE");
  return claim?.kind === "group" ? findGroup(claim.ownerId) : undefined;
}

/** `:id` may be an integer id or a (URL-decoded) full path. */
export async function resolveGroup(idOrPath: string): Promise<Group | undefined> {
  return /^\d+$/.test(idOrPath) ? findGroup(Number(idOrPath)) : findGroupByPath(idOrPath);
}

export async function groupLevel(principal: Principal | undefined, group: Group): Promise<number> {
  if (!principal) return 0;
  if (principal.user.admin) return AccessLevel.owner;
  return groupChainLevel([group.id, ...group.ancestorIds], principal.user.id);
}

/** The group if the caller may see it, with the caller's level; 404 otherwise. */
export async function visibleGroup(principal: Principal | undefined, idOrPath: string) {
  const group = await resolveGroup(idOrPath);
  if (!group) throw notFound("Group");
  const level = await groupLevel(principal, group);
  if (!canSee(principal, group.visibility, level)) throw notFound("Group");
  return { group, level };
}

export async function createGroup(
  creator: Principal,
  input: { name: string; path: string; description?: string; visibility?: Visibility; parentId?: number } & GroupSettings,
): Promise<Group> {
  let parent: Group | undefined;
  if (input.parentId !== undefined) {
    parent = await findGroup(input.parentId);
    if (!parent || (await groupLevel(creator, parent)) < AccessLevel.maintainer) throw notFound("Parent Group");
  }
  const id = await nextId("groups");
  const fullPath = parent ? `${parent.fullPath}/${input.path}` : input.path;
  const group: Group = {
    id,
    name: input.name,
    path: input.path,
    fullPath,
    fullName: parent ? `${groupFullName(parent)} / ${input.name}` : input.name,
    description: input.description ?? "",
    visibility: input.visibility ?? "private",
    parentId: parent?.id ?? null,
    ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [],
    createdAt: new Date().toISOString(),
    requestAccessEnabled: input.requestAccessEnabled ?? true,
    shareWithGroupLock: input.shareWithGroupLock ?? false,
    ...(input.branchProtection ? { branchProtection: input.branchProtection } : {}),
  };
  const now = group.createdAt;
  const items: TransactItem[] = [
    { Put: { Item: { ...pathClaimKey(fullPath), kind: "group", ownerId: id }, ConditionExpression: "attribute_not_exists(pk)" } },
    { Put: { Item: { ...containerKey("group", id), ...allGroupsIndex(id), type: "group", ...group, searchText: groupSearchText(group), shares: {} } } },
    {
      Put: {
        Item: { ...memberKey("group", id, creator.user.id), ...membershipsOfUserIndex("group", creator.user.id, id), userId: creator.user.id, accessLevel: AccessLevel.owner, expiresAt: null, createdAt: now },
      },
    },
  ];
  if (group.visibility !== "private") items.push({ Put: { Item: { ...visibleMarkerKey("group", id), visibility: group.visibility } } });
  if (parent) items.push({ Put: { Item: { ...groupChildKey(parent.id, "group", id) } } });
  try {
    await transact(items);
  } catch (err) {
    if (isConditionFailure(err)) throw validationError({ path: ["has already been taken"] });
    throw err;
  }
  await addToCount("groups", 1);
  return group;
}

export async function updateGroup(group: Group, changes: { name?: string; description?: string; visibility?: Visibility } & GroupSettings): Promise<Group> {
  const next = { ...group, ...changes };
  await transact([
    {
      Update: {
        Key: containerKey("group", group.id),
        UpdateExpression: `SET #n = :n, description = :d, visibility = :v, searchText = :s, requestAccessEnabled = :r, shareWithGroupLock = :l${next.branchProtection ? ", branchProtection = :p" : ""}`,
        ExpressionAttributeNames: { "#n": "name" },
        ExpressionAttributeValues: {
          ":n": next.name,
          ":d": next.description,
          ":v": next.visibility,
          ":s": groupSearchText(next),
          ":r": next.requestAccessEnabled ?? true,
          ":l": next.shareWithGroupLock ?? false,
          ...(next.branchProtection ? { ":p": next.branchProtection } : {}),
        },
        ConditionExpression: "attribute_exists(pk)",
      },
    },
    next.visibility === "private"
      ? { Delete: { Key: visibleMarkerKey("group", group.id) } }
      : { Put: { Item: { ...visibleMarkerKey("group", group.id), visibility: next.visibility } } },
  ]);
  return next;
}

/**
 * Deletes an empty group (and its wiki repository through `removeWiki`). A group that still holds
 * projects or subgroups is refused rather than cascaded: deleting repositories in bulk behind one
 * call is the kind of data loss this service is built to avoid.
 */
/** Deletes an empty group (the caller checked it has no children: `group-deletion.ts` handles the rest). */
export async function deleteGroup(group: Group, removeWiki: () => Promise<void>): Promise<void> {
  if (group.readOnly) throw badRequest("the group wiki is being moved; try again later");
  await removeWiki();
  const members = await queryAll<{ pk: string; sk: string; userId: number }>({ pk: `GROUP#${group.id}`, skPrefix: "MEMBER#" });
  await Promise.all(members.map((m) => deleteItem(m.pk, m.sk)));
  await Promise.all([removeSharesOf(group.id), removeProjectSharesWith(group.id), removeAccessRequestsOf("group", group.id)]);
  await transact([
    { Delete: { Key: containerKey("group", group.id) } },
    { Delete: { Key: pathClaimKey(group.fullPath) } },
    { Delete: { Key: visibleMarkerKey("group", group.id) } },
    ...(group.parentId ? [{ Delete: { Key: groupChildKey(group.parentId, "group", group.id) } }] : []),
  ]);
  await addToCount("groups", -1);
}

/** Removes every share a group takes part in, on either side (GitLab deletes a deleted group's links). */
async function removeSharesOf(groupId: number): Promise<void> {
  const [given, received] = await Promise.all([
    queryAll<ShareRecord>(sharesOfGroupRange(groupId)),
    queryAll<ShareRecord>({ index: GSI1, pk: sharedWithIndexPk(groupId) }),
  ]);
  // A share this group was invited to is also an entry in the other group's `shares`.
  await Promise.all([
    ...given.map((s) => groupShareKey(s.sharedGroupId, s.withGroupId)).map((k) => deleteItem(k.pk, k.sk)),
    ...received.map((s) =>
      transact(unshareWrites(s.sharedGroupId, s.withGroupId, false)).catch(async (err) => {
        if (!isConditionFailure(err)) throw err;
        const k = groupShareKey(s.sharedGroupId, s.withGroupId); // the shared group is gone already
        await deleteItem(k.pk, k.sk);
      }),
    ),
  ]);
}

/** The number of groups (the administrator's `X-Total`), kept as projects keep theirs. */
export const groupCount = () => readCount("groups");

export function groupView(group: Group, baseUrl: string) {
  return {
    id: group.id,
    web_url: `${baseUrl}/groups/${group.fullPath}`,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    full_name: groupFullName(group),
    full_path: group.fullPath,
    parent_id: group.parentId,
    created_at: group.createdAt,
    avatar_url: null,
    request_access_enabled: group.requestAccessEnabled ?? true,
    share_with_group_lock: group.shareWithGroupLock ?? false,
    wiki_access_level: "enabled",
    // GitLab's field, present only while a deletion with contents is pending (the job runs every minute).
    ...(group.markedForDeletionOn ? { marked_for_deletion_on: group.markedForDeletionOn } : {}),
  };
}


/** GitLab's `GroupDetail`: the group, and the groups it is shared with that the caller can see. */
export function groupDetailView(group: Group, baseUrl: string, sharedWithGroups: unknown[]) {
  return { ...groupView(group, baseUrl), shared_with_groups: sharedWithGroups };
}
