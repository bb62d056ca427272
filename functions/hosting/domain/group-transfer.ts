/**
 * Moving a group under another parent, or to the top level (GitLab's `POST /groups/:id/transfer`).
 * The group and everything below it get new full paths: every group's `fullPath` and `ancestorIds`,
 * every project's embedded namespace, and the path claim of each. Repositories are named by id and
 * stay where they are.
 *
 * Up to DynamoDB's 100 items per transaction, all of it is one transaction. A larger tree goes in
 * three phases: claim every new path (undone if one is taken), rewrite the items, release the old
 * paths; in between, a container answers to both paths.
 */
import { getItem, getItems, isConditionFailure, queryAll, transact, type TransactItem } from "../../platform/db/table.js";
import { ApiError } from "../../platform/http/errors.js";
import { findGroup, groupFullName, type Group } from "./groups.js";
import { containerKey, groupChildKey, pathClaimKey } from "./keys.js";
import { groupNamespace } from "./namespaces.js";
import { fullPathOf, type Project } from "./projects.js";
import { readOnlyError } from "./write-path.js";

export const groupTransferError = (message: string) => new ApiError(400, { message: `Transfer failed: ${message}` });
const PATH_TAKEN = "The parent group already has a subgroup or a project with the same path.";
const MAX_TRANSACTION_ITEMS = 100;

/** GitLab's checks, in GitLab's order; the caller checked the permissions. */
export async function transferGroup(group: Group, parent: Group | undefined): Promise<Group> {
  if (!parent && group.parentId === null) throw groupTransferError("Group is already a root group.");
  if (parent && parent.id === group.parentId) throw groupTransferError("Group is already associated to the parent group.");
  const newFullPath = parent ? `${parent.fullPath}/${group.path}` : group.path;
  if (await getItem(pathClaimKey(newFullPath).pk, pathClaimKey(newFullPath).sk)) throw groupTransferError(PATH_TAKEN);
  if (parent && (parent.id === group.id || parent.ancestorIds.includes(group.id))) throw groupTransferError("Cannot transfer group to one of its subgroup.");

  const { groups, projects } = await subtree(group.id);
  // As every write to them, refused while any of their repositories is being moved.
  if ([...groups, ...projects].some((c) => c.readOnly)) throw readOnlyError();

  const newAncestors = parent ? [parent.id, ...parent.ancestorIds] : [];
  const moved = new Map<number, Group>();
  for (const g of groups) {
    const below = g.ancestorIds.indexOf(group.id);
    const ancestorIds = g.id === group.id ? newAncestors : [...g.ancestorIds.slice(0, below + 1), ...newAncestors];
    const parentId = g.id === group.id ? (parent?.id ?? null) : g.parentId;
    moved.set(g.id, { ...g, fullPath: newFullPath + g.fullPath.slice(group.fullPath.length), fullName: fullNameIn(moved, g, group.id, parent), ancestorIds, parentId });
  }

  const claims: TransactItem[] = [];
  const releases: TransactItem[] = [];
  const rewrites: TransactItem[] = [];
  const claim = (fullPath: string, kind: "group" | "project", ownerId: number) =>
    claims.push({ Put: { Item: { ...pathClaimKey(fullPath), kind, ownerId }, ConditionExpression: "attribute_not_exists(pk)" } });
  for (const g of groups) {
    const next = moved.get(g.id)!;
    claim(next.fullPath, "group", g.id);
    releases.push({ Delete: { Key: pathClaimKey(g.fullPath) } });
    rewrites.push({
      Update: {
        Key: containerKey("group", g.id),
        UpdateExpression: "SET fullPath = :f, ancestorIds = :a, parentId = :p, fullName = :n",
        ExpressionAttributeValues: { ":f": next.fullPath, ":a": next.ancestorIds, ":p": next.parentId, ":n": next.fullName },
        ConditionExpression: "attribute_exists(pk)",
      },
    });
  }
  for (const p of projects) {
    const namespace = groupNamespace(moved.get(p.namespace.id)!);
    claim(fullPathOf({ ...p, namespace }), "project", p.id);
    releases.push({ Delete: { Key: pathClaimKey(fullPathOf(p)) } });
    rewrites.push(projectNamespaceRewrite(p, namespace));
  }
  if (group.parentId !== null) rewrites.push({ Delete: { Key: groupChildKey(group.parentId, "group", group.id) } });
  if (parent) rewrites.push({ Put: { Item: { ...groupChildKey(parent.id, "group", group.id) } } });

  await applyTransfer(claims, rewrites, releases);
  return moved.get(group.id)!;
}

/**
 * A group's full name (`Parent / Child`) where `root` goes under `parent` (undefined: the top level);
 * `named` holds the groups above `g` in the tree already, as `subtree` lists them parents first.
 */
function fullNameIn(named: Map<number, Group>, g: Group, rootId: number, parent: Group | undefined): string {
  const above = g.id === rootId ? parent : named.get(g.parentId!);
  return above ? `${groupFullName(above)} / ${g.name}` : g.name;
}

/** The namespace a project of the tree carries, rewritten; a project transferred out meanwhile is left alone. */
const projectNamespaceRewrite = (p: Project, namespace: ReturnType<typeof groupNamespace>): TransactItem => ({
  Update: {
    Key: containerKey("project", p.id),
    UpdateExpression: "SET #ns = :ns",
    ConditionExpression: "#ns.id = :group AND #ns.kind = :kind",
    ExpressionAttributeNames: { "#ns": "namespace" },
    ExpressionAttributeValues: { ":ns": namespace, ":group": p.namespace.id, ":kind": "group" },
  },
});

/**
 * After a group's rename, what carries its name follows, as GitLab's names are always current: its
 * full name and its subgroups', and the namespace every project below carries (`name_with_namespace`).
 * No path changes, so no claims: the rewrites go in transactions of up to 100 items. Answers the group.
 */
export async function renameGroupTree(group: Group): Promise<Group> {
  const { groups, projects } = await subtree(group.id);
  const parent = group.parentId === null ? undefined : await findGroup(group.parentId);
  const named = new Map<number, Group>();
  const rewrites: TransactItem[] = [];
  for (const g of groups) {
    const next = { ...g, fullName: fullNameIn(named, g.id === group.id ? group : g, group.id, parent) };
    named.set(g.id, next);
    rewrites.push({ Update: { Key: containerKey("group", g.id), UpdateExpression: "SET fullName = :n", ConditionExpression: "attribute_exists(pk)", ExpressionAttributeValues: { ":n": next.fullName } } });
  }
  for (const p of projects) rewrites.push(projectNamespaceRewrite(p, groupNamespace(named.get(p.namespace.id)!)));
  for (const chunk of chunks(rewrites)) await transact(chunk);
  return named.get(group.id) ?? group;
}

/** The group and every group and project below it, read level by level (one Query per group). */
async function subtree(rootId: number): Promise<{ groups: Group[]; projects: Project[] }> {
  const root = await findGroup(rootId);
  const groups: Group[] = root ? [root] : [];
  const projectIds: number[] = [];
  for (let frontier = [rootId]; frontier.length > 0; ) {
    const children = (await Promise.all(frontier.map((id) => queryAll<{ sk: string }>({ pk: groupChildKey(id, "group", 0).pk, skPrefix: "CHILD#" })))).flat();
    const idsOf = (kind: string) => children.filter((c) => c.sk.startsWith(`CHILD#${kind}#`)).map((c) => Number(c.sk.split("#").pop()));
    projectIds.push(...idsOf("project"));
    const subgroups = (await getItems<Group>(idsOf("group").map((id) => containerKey("group", id)))).filter((g): g is Group => !!g);
    groups.push(...subgroups);
    frontier = subgroups.map((g) => g.id);
  }
  const projects = (await getItems<Project>(projectIds.map((id) => containerKey("project", id)))).filter((p): p is Project => !!p);
  return { groups, projects };
}

async function applyTransfer(claims: TransactItem[], rewrites: TransactItem[], releases: TransactItem[]): Promise<void> {
  const all = [...claims, ...rewrites, ...releases];
  if (all.length <= MAX_TRANSACTION_ITEMS) {
    try {
      return await transact(all);
    } catch (err) {
      if (isConditionFailure(err)) throw groupTransferError(PATH_TAKEN);
      throw err;
    }
  }
  const claimed: TransactItem[] = [];
  for (const chunk of chunks(claims)) {
    try {
      await transact(chunk);
      claimed.push(...chunk.map((c) => ({ Delete: { Key: { pk: c.Put!.Item!.pk, sk: c.Put!.Item!.sk } } })));
    } catch (err) {
      // Give back what this transfer claimed so far: the tree keeps its old paths only.
      for (const undo of chunks(claimed)) await transact(undo);
      if (isConditionFailure(err)) throw groupTransferError(PATH_TAKEN);
      throw err;
    }
  }
  for (const chunk of chunks(rewrites)) await transact(chunk);
  for (const chunk of chunks(releases)) await transact(chunk);
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += MAX_TRANSACTION_ITEMS) out.push(items.slice(i, i + MAX_TRANSACTION_ITEMS));
  return out;
}
