/** Users: GitLab's user entity, created by administrators (or by the bootstrap). */
import { getItem, getItems, isConditionFailure, nextId, queryAll, queryPage, transact, GSI1 } from "../../platform/db/table.js";
import { conflict, validationError } from "../../platform/http/errors.js";
import { allUsersIndex, emailClaimKey, namespaceClaimKey, userKey } from "./keys.js";

/** GitLab's states an administrator sets through the API (`ldap_blocked`, `blocked_pending_approval`… have no source here). */
export type UserState = "active" | "blocked" | "banned" | "deactivated";

/** The free-text profile fields GitLab lets an administrator edit (`PUT /users/:id`), shown as given. */
export const PROFILE_FIELDS = ["bio", "location", "website_url", "organization", "job_title", "pronouns", "skype", "linkedin", "twitter", "note"] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  admin: boolean;
  state: UserState;
  createdAt: string;
  profile?: Partial<Record<ProfileField, string>>;
  canCreateGroup?: boolean;
  privateProfile?: boolean;
  /** Set when the user has an uploaded avatar (functions/identity/domain/avatars.ts). */
  avatar?: { filename: string };
}

type NewUser = { username: string; name: string; email: string; admin: boolean };

/**
 * The user's items in one transaction, claims conditional; a taken claim fails it raw. The first
 * administrator's creation (`bootstrap.ts`, in every function's bundle) calls this directly: it runs
 * once, on an empty instance, so it needs none of `createUser`'s answers for taken names.
 */
export async function insertUser(input: NewUser): Promise<User> {
  const id = await nextId("users");
  const user: User = { id, ...input, state: "active", createdAt: new Date().toISOString() };
  await transact([
    { Put: { Item: { ...namespaceClaimKey(input.username), kind: "user", ownerId: id }, ConditionExpression: "attribute_not_exists(pk)", ReturnValuesOnConditionCheckFailure: "ALL_OLD" } },
    { Put: { Item: { ...emailClaimKey(input.email), userId: id }, ConditionExpression: "attribute_not_exists(pk)" } },
    { Put: { Item: { ...userKey(id), ...allUsersIndex(id), type: "user", ...user } } },
  ]);
  return user;
}

export async function createUser(input: NewUser): Promise<User> {
  try {
    return await insertUser(input);
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

/** Several users by id, in the order asked (undefined where absent): one batched read. */
export async function findUsers(ids: number[]): Promise<Array<User | undefined>> {
  const items = await getItems<User>(ids.map(userKey));
  return items.map((item) => (item ? toUser(item) : undefined));
}

export async function findUserByUsername(username: string): Promise<User | undefined> {
  const claim = await getItem<{ kind: string; ownerId: number }>(namespaceClaimKey(username).pk, "NAMESPACE");
  return claim?.kind === "user" ? findUser(claim.ownerId) : undefined;
}

export async function listUsers(offset: number, limit: number) {
  const page = await queryPage<User>({ index: GSI1, pk: "USERS", ascending: true, offset, limit });
  return { users: page.items.map(toUser), hasMore: page.hasMore };
}

/**
 * GitLab's `search`: a case-insensitive substring of the username, name or (for administrators) the
 * e-mail. It reads the users index with a Query and filters; there is no full-text index here.
 */
export async function searchUsers(term: string, withEmail: boolean): Promise<User[]> {
  const needle = term.toLowerCase();
  const all = await queryAll<User>({ index: GSI1, pk: "USERS" });
  return all.map(toUser).filter((u) => [u.username, u.name, ...(withEmail ? [u.email] : [])].some((v) => v.toLowerCase().includes(needle)));
}

export function toUser(item: User): User {
  return {
    id: item.id,
    username: item.username,
    name: item.name,
    email: item.email,
    admin: item.admin,
    state: item.state,
    createdAt: item.createdAt,
    profile: item.profile ?? {},
    canCreateGroup: item.canCreateGroup ?? true,
    privateProfile: item.privateProfile ?? false,
    ...(item.avatar ? { avatar: item.avatar } : {}),
  };
}

/** Where GitLab serves an uploaded avatar; null when the user has none. */
export const avatarUrl = (user: User, baseUrl: string) =>
  user.avatar ? `${baseUrl}/uploads/-/system/user/avatar/${user.id}/${user.avatar.filename}` : null;

/** GitLab's `UserBasic` (what other users may see). */
export function basicUser(user: User, baseUrl: string) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: avatarUrl(user, baseUrl),
    web_url: `${baseUrl}/${user.username}`,
  };
}

/** GitLab's `User`/`UserPublic` (admins and the user themself). */
export function fullUser(user: User, baseUrl: string) {
  return {
    ...basicUser(user, baseUrl),
    created_at: user.createdAt,
    ...Object.fromEntries(PROFILE_FIELDS.filter((f) => f !== "note").map((f) => [f, user.profile?.[f] ?? ""])),
    public_email: null,
    email: user.email,
    is_admin: user.admin,
    private_profile: user.privateProfile ?? false,
    can_create_group: user.canCreateGroup ?? true,
    can_create_project: true,
  };
}

/** GitLab's `UserWithAdmin`: what administrators see, with their private `note` on the user. */
export function adminUser(user: User, baseUrl: string) {
  return { ...fullUser(user, baseUrl), note: user.profile?.note ?? null };
}
