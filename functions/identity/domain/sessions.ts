/**
 * Browser sessions. A user signs in with a personal access token; the session remembers that token
 * (by hash), so the session has exactly the token's scopes and dies with it (revocation, expiry).
 * Only a SHA-256 of the session id is stored. Each session has its own CSRF token, required on every
 * state-changing request that authenticates with the session cookie.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { deleteItem, getItem, putItem } from "../../platform/db/table.js";

export const SESSION_COOKIE = "_forgeline_session";
const SESSION_HOURS = 8;

export interface SessionRecord {
  tokenHash: string;
  userId: number;
  csrfToken: string;
  createdAt: string;
  /** Epoch seconds; also the DynamoDB TTL attribute. */
  expireAt: number;
}

const sessionKey = (id: string) => ({ pk: `SESSION#${createHash("sha256").update(id).digest("hex")}`, sk: "SESSION" });

export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");

export async function createSession(tokenHash: string, userId: number): Promise<{ id: string; record: SessionRecord }> {
  const id = randomToken();
  const record: SessionRecord = {
    tokenHash,
    userId,
    csrfToken: randomToken(24),
    createdAt: new Date().toISOString(),
    expireAt: Math.floor(Date.now() / 1000) + SESSION_HOURS * 3600,
  };
  await putItem({ ...sessionKey(id), type: "session", ...record });
  return { id, record };
}

export async function findSession(id: string): Promise<SessionRecord | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(id)) return undefined;
  const key = sessionKey(id);
  const record = await getItem<SessionRecord>(key.pk, key.sk, false);
  // DynamoDB TTL deletes lazily (and DynamoDB Local never does), so expiry is checked on read.
  if (!record || record.expireAt * 1000 <= Date.now()) return undefined;
  return record;
}

export async function endSession(id: string): Promise<void> {
  const key = sessionKey(id);
  await deleteItem(key.pk, key.sk);
}

export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
