/** Users: GitLab's user entity, created by administrators (or by the bootstrap). */
import { getItem, isConditionFailure, nextId, queryPage, transact, GSI1 } from "../../platform/db/table.js";
import { conflict, validationError } from "../../platform/http/errors.js";
import { allUsersIndex, emailClaimKey, namespaceClaimKey, userKey } from "./keys.js";

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  admin: boolean;
  state: "active" | "blocked";
  createdAt: string;
}

export async function createUser(input: { username: string; name: string; email: string; admin: boolean }): Promise<User> {
  const id = await nextId("users");
  const user: User = { id, ...input, state: "active", createdAt: new Date().toISOString() };
  try {
    await transact([
      { Put: { Item: { ...namespaceClaimKey(input.username), kind: "user", ownerId: id }, ConditionExpression: "attribute_not_exists(pk)", ReturnValuesOnConditionCheckFailure: "ALL_OLD" } },
      { Put: { Item: { ...emailClaimKey(input.email), userId: id }, ConditionExpression: "attribute_not_exists(pk)" } },
      { Put: { Item: { ...userKey(id), ...allUsersIndex(id), type: "user", ...user } } },
    ]);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const reasons = (err as { CancellationReasons?: Array<{ Code?: string; Item?: Record<string, unknown> }> }).CancellationReasons ?? [];
    const [pathTaken, emailTaken] = reasons.map((r) => r?.Code === "ConditionalCheckFailed");
    // GitLab's order: a taken e-mail, then a username another user holds, are 409 conflicts; a path
    // a group holds is a validation error of the username.
    if (emailTaken) throw conflict("Email has already been taken");
    if (pathTaken && claimKind(reasons[0]?.Item) === "user") throw conflict("Username has already been taken");
    throw validationError(pathTaken ? { username: ["has already been taken"] } : { base: ["could not be saved"] });
  }
  return user;
}

/** The `kind` of the namespace claim a failed condition returned (raw attribute values). */
function claimKind(item: Record<string, unknown> | undefined): unknown {
  const kind = item?.kind as { S?: string } | string | undefined;
  return typeof kind === "object" ? kind?.S : kind;
}

export async function findUser(id: number): Promise<User | undefined> {
  const item = await getItem<User & { type: string }>(userKey(id).pk, userKey(id).sk);
  return item ? toUser(item) : undefined;
}

export async function findUserByUsername(username: string): Promise<User | undefined> {
  const claim = await getItem<{ kind: string; ownerId: number }>(namespaceClaimKey(username).pk, "NAMESPACE");
  return claim?.kind === "user" ? findUser(claim.ownerId) : undefined;
}

export async function listUsers(offset: number, limit: number) {
  const page = await queryPage<User>({ index: GSI1, pk: "USERS", ascending: true, offset, limit });
  return { users: page.items.map(toUser), hasMore: page.hasMore };
}

function toUser(item: User): User {
  return {
    id: item.id,
    username: item.username,
    name: item.name,
    email: item.email,
    admin: item.admin,
    state: item.state,
    createdAt: item.createdAt,
  };
}

/** GitLab's `UserBasic` (what other users may see). */
export function basicUser(user: User, baseUrl: string) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: null,
    web_url: `${baseUrl}/${user.username}`,
  };
}

/** GitLab's `User`/`UserPublic` (admins and the user themself). */
export function fullUser(user: User, baseUrl: string) {
  return {
    ...basicUser(user, baseUrl),
    created_at: user.createdAt,
    bio: "",
    public_email: null,
    email: user.email,
    is_admin: user.admin,
    can_create_group: true,
    can_create_project: true,
  };
}
