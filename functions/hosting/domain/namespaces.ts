/** Where a project lives: a user's personal namespace or a group (with its ancestors). */
import type { Principal } from "../../identity/domain/auth.js";
import { findUser, type User } from "../../identity/domain/users.js";
import { getItem } from "../../platform/db/table.js";
import { notFound } from "../../platform/http/errors.js";
import { AccessLevel, canSee } from "./access.js";
import { findGroup, groupFullName, groupLevel, type Group } from "./groups.js";
import { pathClaimKey } from "./keys.js";

export interface Namespace {
  kind: "user" | "group";
  id: number;
  name: string;
  path: string;
  fullPath: string;
  /** A group's full name (`groupFullName`) as its projects carry it; a user namespace's human name is `name`. */
  fullName?: string;
  parentId: number | null;
  ownerId?: number;
  /** The group and its ancestors, nearest first (empty for a user namespace). */
  groupIds: number[];
}

export function groupNamespace(group: Group): Namespace {
  return { kind: "group", id: group.id, name: group.name, path: group.path, fullPath: group.fullPath, fullName: groupFullName(group), parentId: group.parentId, groupIds: [group.id, ...group.ancestorIds] };
}

export function userNamespace(user: { id: number; username: string; name: string }): Namespace {
  return { kind: "user", id: user.id, name: user.name, path: user.username, fullPath: user.username, parentId: null, ownerId: user.id, groupIds: [] };
}

/**
 * GitLab numbers user and group namespaces from one sequence; here users and groups have sequences
 * of their own (a user's namespace shares the user's id internally). Outside, a user's namespace id
 * is this base plus the user id, which no group id reaches, so a `namespace_id` names one namespace.
 */
export const USER_NAMESPACE_ID_BASE = 1_000_000_000;

/** The id clients see (`GET /namespaces`, a project's `namespace.id`) and send back as `namespace_id`. */
export const namespaceIdOf = (ns: Pick<Namespace, "kind" | "id">) => (ns.kind === "user" ? USER_NAMESPACE_ID_BASE + ns.id : ns.id);

/**
 * A namespace by its public id or its full path (any letter case), whoever may see it; undefined
 * when there is none.
 */
export async function resolveNamespace(idOrPath: string | number): Promise<{ kind: "user"; user: User } | { kind: "group"; group: Group } | undefined> {
  const raw = String(idOrPath);
  if (/^\d+$/.test(raw)) {
    const id = Number(raw);
    if (id > USER_NAMESPACE_ID_BASE) {
      const user = await findUser(id - USER_NAMESPACE_ID_BASE);
      return user && { kind: "user", user };
    }
    const group = await findGroup(id);
    return group && { kind: "group", group };
  }
  const claim = await getItem<{ kind: string; ownerId: number }>(pathClaimKey(raw).pk, pathClaimKey(raw).sk);
  if (claim?.kind === "user") {
    const user = await findUser(claim.ownerId);
    return user && { kind: "user", user };
  }
  if (claim?.kind === "group") {
    const group = await findGroup(claim.ownerId);
    return group && { kind: "group", group };
  }
  return undefined;
}

/**
 * A namespace the caller may read (GitLab's `read_namespace`): a user's own namespace (any for an
 * administrator), or a group the caller can see. Anything else is `404 Namespace Not Found`.
 */
export async function readableNamespace(principal: Principal, idOrPath: string): Promise<Namespace> {
  const found = await resolveNamespace(idOrPath);
  if (found?.kind === "user" && (principal.user.admin || found.user.id === principal.user.id)) return userNamespace(found.user);
  if (found?.kind === "group" && canSee(principal, found.group.visibility, await groupLevel(principal, found.group))) return groupNamespace(found.group);
  throw notFound("Namespace");
}

/**
 * The namespace a new project goes into: `namespace_id` (a group id or full path, or the caller's own
 * username) or, when omitted, the caller's personal namespace. Creating in a group takes Developer+
 * (GitLab's default `project_creation_level`). A namespace the caller cannot use answers 404.
 */
export async function targetNamespace(principal: Principal, namespaceId: string | number | undefined): Promise<NamespaceTarget> {
  if (namespaceId === undefined || namespaceId === principal.user.username) return { namespace: userNamespace(principal.user) };
  const found = await resolveNamespace(namespaceId);
  if (found?.kind === "group") {
    if ((await groupLevel(principal, found.group)) < AccessLevel.developer) throw notFound("Namespace");
    return { namespace: groupNamespace(found.group), group: found.group };
  }
  if (found?.kind === "user" && (principal.user.admin || found.user.id === principal.user.id)) return { namespace: userNamespace(found.user) };
  throw notFound("Namespace");
}

/** Where a new project goes: its namespace, and the group item read to find it (a group namespace), for its settings. */
export interface NamespaceTarget {
  namespace: Namespace;
  group?: Group;
}

export function namespaceView(ns: Namespace, baseUrl: string) {
  return {
    id: namespaceIdOf(ns),
    name: ns.kind === "user" ? ns.path : ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.fullPath,
    parent_id: ns.parentId,
    avatar_url: null,
    web_url: ns.kind === "user" ? `${baseUrl}/${ns.fullPath}` : `${baseUrl}/groups/${ns.fullPath}`,
  };
}

/**
 * GitLab's `GET /namespaces/:namespace/exists`: whether `path` is taken at the top level or, with a
 * parent group, inside it (any letter case); when taken, the first free `path1`, `path2`… as the one
 * suggestion (GitLab's `Namespace.clean_path` uniquifies the same way). A path holding `/` names no
 * single namespace and never exists.
 */
export async function namespaceExists(path: string, parent: Group | undefined): Promise<{ exists: boolean; suggests: string[] }> {
  const taken = async (candidate: string) => !!(await getItem(pathClaimKey(parent ? `${parent.fullPath}/${candidate}` : candidate).pk, "NAMESPACE"));
  if (path.includes("/") || !(await taken(path))) return { exists: false, suggests: [] };
  for (let n = 1; n <= MAX_SUGGESTION_TRIES; n++) if (!(await taken(`${path}${n}`))) return { exists: true, suggests: [`${path}${n}`] };
  return { exists: true, suggests: [] };
}
/** How many numbered variants a suggestion tries, one read each, before giving none. */
const MAX_SUGGESTION_TRIES = 100;
