/**
 * Rotating a personal access token (GitLab's `PersonalAccessTokens::RotateService`): the token is
 * revoked and a new one with its name, description, scopes and kind is issued, in one transaction,
 * so exactly one of two concurrent rotations wins. The two are linked (`previousTokenId`,
 * `nextTokenId`): GitLab's token family, whose newest token is the only active one. A revoked token
 * of a family presented to a rotation endpoint is taken as a leak (GitLab's automatic reuse
 * detection): the family's active token is revoked too.
 */
import { isConditionFailure, transact } from "../../platform/db/table.js";
import { tokenKey } from "./keys.js";
import { forgetCachedToken } from "./principal-cache.js";
import { findToken, findTokenById, issueToken, revokeToken, type TokenRecord } from "./tokens.js";

/** GitLab's default lifetime of a rotated token without `expires_at`. */
export const ROTATED_LIFETIME_DAYS = 7;

/** The new token, or undefined when the old one was revoked meanwhile (another rotation won). */
export async function rotateToken(old: TokenRecord, expiresAt: string): Promise<{ record: TokenRecord; token: string } | undefined> {
  const input = { userId: old.userId, name: old.name, scopes: old.scopes, expiresAt, previousTokenId: old.id, impersonation: old.impersonation, description: old.description };
  let issued: { record: TokenRecord; token: string };
  try {
    issued = await issueToken(input, (item) =>
      transact([
        {
          Update: {
            Key: tokenKey(old.hash),
            UpdateExpression: "SET revoked = :t, nextTokenId = :next",
            ConditionExpression: "attribute_exists(pk) AND revoked = :f",
            ExpressionAttributeValues: { ":t": true, ":f": false, ":next": item.id },
          },
        },
        { Put: { Item: item, ConditionExpression: "attribute_not_exists(pk)" } },
      ]),
    );
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
  forgetCachedToken(old.hash);
  return issued;
}

/**
 * The presented token is revoked: if it was rotated, revoke the newest token of its family (the one
 * a thief would have obtained by rotating it, or its owner's current one: both must re-authorise).
 */
export async function revokeFamilyOfLeaked(plain: string): Promise<void> {
  let token = await findToken(plain);
  if (!token?.revoked) return;
  for (let hops = 0; token?.nextTokenId && hops < 1000; hops++) {
    token = await findTokenById(token.nextTokenId);
    if (token && !token.revoked) return revokeToken(token.hash);
  }
}
