/** Where a project lives: a user's personal namespace or a group (with its ancestors). */
import type { Principal } from "../../identity/domain/auth.js";
import { findUser, findUserByUsername } from "../../identity/domain/users.js";
import { notFound } from "../../platform/http/errors.js";
import { AccessLevel } from "./access.js";
import { findGroup, findGroupByPath, groupLevel, type Group } from "./groups.js";

export interface Namespace {
  kind: "user" | "group";
  id: number;
  name: string;
  path: string;
  fullPath: string;
  parentId: number | null;
  ownerId?: number;
  /** The group and its ancestors, nearest first (empty for a user namespace). */
  groupIds: number[];
}

export function groupNamespace(group: Group): Namespace {
  return { kind: "group", id: group.id, name: group.name, path: group.path, fullPath: group.fullPath, parentId: group.parentId, groupIds: [group.id, ...group.ancestorIds] };
}

export function userNamespace(user: { id: number; username: string; name: string }): Namespace {
  return { kind: "user", id: user.id, name: user.name, path: user.username, fullPath: user.username, parentId: null, ownerId: user.id, groupIds: [] };
}

/**
 * The namespace a new project goes into: `namespace_id` (a group id or full path, or the caller's own
 * username) or, when omitted, the caller's personal namespace. Creating in a group takes Developer+
 * (GitLab's default `project_creation_level`). A namespace the caller cannot use answers 404.
 */
export async function targetNamespace(principal: Principal, namespaceId: string | number | undefined): Promise<Namespace> {
  if (namespaceId === undefined || namespaceId === principal.user.username) return userNamespace(principal.user);
  const raw = String(namespaceId);
  const group = /^\d+$/.test(raw) ? await findGroup(Number(raw)) : await findGroupByPath(raw);
  if (group) {
    if ((await groupLevel(principal, group)) < AccessLevel.developer) throw notFound("Namespace");
    return groupNamespace(group);
  }
  if (principal.user.admin) {
    const user = /^\d+$/.test(raw) ? await findUser(Number(raw)) : await findUserByUsername(raw);
    if (user) return userNamespace(user);
  }
  throw notFound("Namespace");
}

export function namespaceView(ns: Namespace, baseUrl: string) {
  return {
    id: ns.id,
    name: ns.kind === "user" ? ns.path : ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.fullPath,
    parent_id: ns.parentId,
    avatar_url: null,
    web_url: ns.kind === "user" ? `${baseUrl}/${ns.fullPath}` : `${baseUrl}/groups/${ns.fullPath}`,
  };
}
