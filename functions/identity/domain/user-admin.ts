/**
 * What administrators do to a user account: edit its profile, block/unblock, ban/unban (GitLab's
 * state machine, its answers) and remove the account record. Every change of state is one
 * conditional write, and forgets the user's cached principals here at once; other instances stop
 * accepting the user's tokens within the principal cache's lifetime (principal-cache.ts).
 */
import { isConditionFailure, pad, queryAll, transact, updateItem, GSI1 } from "../../platform/db/table.js";
import { ApiError, validationError } from "../../platform/http/errors.js";
import { emailClaimKey, namespaceClaimKey, userActivityItem, userKey, userPreferencesKey, userStatusKey } from "./keys.js";
import { forgetCachedUser } from "./principal-cache.js";
import { findUser, toUser, type ProfileField, type User, type UserState } from "./users.js";
import { deleteAvatar } from "./avatars.js";
import type { TokenRecord } from "./tokens.js";
import { revokeToken } from "./tokens.js";

/** Users in a state other than active are listed by `gsi2pk = USERS#<state>` (`?blocked=true`). */
export const usersInStateIndex = (state: UserState, id: number) => ({ gsi2pk: `USERS#${state}`, gsi2sk: pad(id) });

/**
 * Moves a user from one of `from` to `to`. Returns the user after the change, or undefined when the
 * user was in none of `from` (the caller answers as GitLab does for that case).
 */
export async function changeState(user: User, from: UserState[], to: UserState): Promise<User | undefined> {
  const values: Record<string, unknown> = { ":to": to, ...Object.fromEntries(from.map((s, i) => [`:from${i}`, s])) };
  try {
    const index = usersInStateIndex(to, user.id);
    const item = await updateItem({
      ...userKey(user.id),
      update: to === "active" ? "SET #state = :to REMOVE gsi2pk, gsi2sk" : "SET #state = :to, gsi2pk = :gpk, gsi2sk = :gsk",
      condition: `attribute_exists(pk) AND #state IN (${from.map((_, i) => `:from${i}`).join(", ")})`,
      names: { "#state": "state" },
      values: to === "active" ? values : { ...values, ":gpk": index.gsi2pk, ":gsk": index.gsi2sk },
    });
    forgetCachedUser(user.id);
    return toUser(item as unknown as User);
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}

export interface UserChanges {
  name?: string;
  email?: string;
  admin?: boolean;
  canCreateGroup?: boolean;
  privateProfile?: boolean;
  profile?: Partial<Record<ProfileField, string>>;
}

/** Edits a user; a new e-mail moves its uniqueness claim in the same transaction. */
export async function updateUser(user: User, changes: UserChanges): Promise<User> {
  const next: User = {
    ...user,
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.email !== undefined ? { email: changes.email } : {}),
    ...(changes.admin !== undefined ? { admin: changes.admin } : {}),
    ...(changes.canCreateGroup !== undefined ? { canCreateGroup: changes.canCreateGroup } : {}),
    ...(changes.privateProfile !== undefined ? { privateProfile: changes.privateProfile } : {}),
    profile: { ...user.profile, ...changes.profile },
  };
  const emailMoves = changes.email !== undefined && changes.email.toLowerCase() !== user.email.toLowerCase();
  try {
    await transact([
      ...(emailMoves
        ? [
            { Put: { Item: { ...emailClaimKey(next.email), userId: user.id }, ConditionExpression: "attribute_not_exists(pk)" } },
            { Delete: { Key: emailClaimKey(user.email) } },
          ]
        : []),
      {
        Update: {
          Key: userKey(user.id),
          UpdateExpression: "SET #name = :name, email = :email, #admin = :admin, canCreateGroup = :ccg, privateProfile = :pp, profile = :profile",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#name": "name", "#admin": "admin" },
          ExpressionAttributeValues: { ":name": next.name, ":email": next.email, ":admin": next.admin, ":ccg": next.canCreateGroup ?? true, ":pp": next.privateProfile ?? false, ":profile": next.profile },
        },
      },
    ]);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const reasons = (err as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
    if (emailMoves && reasons[0]?.Code === "ConditionalCheckFailed") throw validationError({ email: ["has already been taken"] });
    throw new ApiError(404, { message: "404 User Not Found" });
  }
  forgetCachedUser(user.id);
  return next;
}

/**
 * Removes the account itself: its record, its username and e-mail claims, its avatar, status and
 * preferences, and revokes every token it holds (revoked, not deleted, so the hashes cannot be
 * issued again). What the user owns in other contexts is handled by the caller first.
 */
export async function removeUserRecord(id: number): Promise<void> {
  const user = await findUser(id);
  if (!user) return;
  const tokens = await queryAll<TokenRecord>({ index: GSI1, pk: `USER#${id}#PATS` });
  await Promise.all(tokens.filter((t) => !t.revoked).map((t) => revokeToken(t.hash)));
  await deleteAvatar(id);
  await transact([
    { Delete: { Key: userKey(id) } },
    { Delete: { Key: userStatusKey(id) } },
    { Delete: { Key: { pk: userActivityItem(id, "").pk, sk: userActivityItem(id, "").sk } } },
    { Delete: { Key: userPreferencesKey(id) } },
    { Delete: { Key: namespaceClaimKey(user.username) } },
    { Delete: { Key: emailClaimKey(user.email) } },
  ]);
  forgetCachedUser(id);
}


/** Records that the user has an uploaded avatar (its bytes are saved first, avatars.ts). */
export async function setAvatar(user: User, filename: string): Promise<User> {
  await updateItem({ ...userKey(user.id), update: "SET avatar = :a", condition: "attribute_exists(pk)", values: { ":a": { filename } } });
  forgetCachedUser(user.id);
  return { ...user, avatar: { filename } };
}
