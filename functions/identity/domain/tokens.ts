/**
 * Personal access tokens. Only the SHA-256 of a token is stored; the plain token is shown once, at
 * creation. Scopes follow GitLab: `api` (everything), `read_api` (reads), `read_user` (the user
 * endpoints), `read_repository`/`write_repository` (Git over HTTP, not the REST API), `sudo`,
 * `self_rotate` (rotating the token itself) and `k8s_proxy` (the agent for Kubernetes, which is not
 * part of this service: such a token opens nothing here).
 */
import { createHash, randomBytes } from "node:crypto";
import { getItem, isConditionFailure, nextId, pad, putItem, queryPage, updateItem, GSI1, GSI2, type Item } from "../../platform/db/table.js";
import { allTokensIndex, tokenKey, tokensOfUserIndex, userActivityItem } from "./keys.js";
import { forgetCachedToken } from "./principal-cache.js";
import { isOutOfSpace } from "../../platform/out-of-space.js";

/** The scopes of the first administrator's token (`bootstrap.ts`). */
export const SCOPES = ["api", "read_api", "read_user", "read_repository", "write_repository", "sudo"] as const;
/** Every scope a token may be created with: also `self_rotate` and `k8s_proxy`. */
export const TOKEN_SCOPES = ["api", "read_api", "read_user", "read_repository", "write_repository", "sudo", "self_rotate", "k8s_proxy"] as const;
export type Scope = (typeof TOKEN_SCOPES)[number];

export interface TokenRecord {
  id: number;
  userId: number;
  name: string;
  scopes: Scope[];
  /** `YYYY-MM-DD`; the token stops working at the start of that day (UTC), as in GitLab. */
  expiresAt: string | null;
  revoked: boolean;
  createdAt: string;
  hash: string;
  /** Written at most once per `LAST_USED_THROTTLE_MS` (GitLab's throttle), so reads stay reads. */
  lastUsedAt?: string | null;
  /** An impersonation token (issued by an administrator, listed apart from the user's own tokens). */
  impersonation?: boolean;
  /** What the token is for, as its creator wrote it (GitLab 16.x+). */
  description?: string | null;
  /** Rotation (GitLab's token family): the token this one replaced, and the one that replaced it. */
  previousTokenId?: number;
  nextTokenId?: number;
}

export const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

/** `glpat-` + 20 random URL-safe characters, GitLab's format (secret scanners recognise it). */
export function generateToken(): string {
  const bytes = randomBytes(20);
  let out = "glpat-";
  for (const b of bytes) out += ALPHABET[b & 63];
  return out;
}

export interface NewToken {
  userId: number;
  name: string;
  scopes: Scope[];
  expiresAt: string | null;
  /** A caller-chosen secret (bootstrap only); otherwise one is generated. */
  plain?: string;
  impersonation?: boolean;
  description?: string | null;
  /** The token a rotation replaces (`token-rotation.ts`). */
  previousTokenId?: number;
}

/**
 * Issues a token: its record and the item that stores it (keyed by hash, listed by user and by id),
 * built here only. `write` stores the item: a conditional put, or for a rotation the transaction that
 * also revokes the token it replaces.
 */
export async function issueToken(
  input: NewToken,
  write: (item: Item & TokenRecord) => Promise<unknown> = (item) => putItem(item, { expression: "attribute_not_exists(pk)" }),
): Promise<{ record: TokenRecord; token: string }> {
  const token = input.plain ?? generateToken();
  const id = await nextId("tokens");
  const record: TokenRecord = {
    id,
    userId: input.userId,
    name: input.name,
    scopes: [...new Set(input.scopes)],
    expiresAt: input.expiresAt,
    revoked: false,
    createdAt: new Date().toISOString(),
    hash: hashToken(token),
    // Absent rather than false or empty: the item leaves out undefined values.
    previousTokenId: input.previousTokenId,
    impersonation: input.impersonation || undefined,
    description: input.description || undefined,
  };
  await write({ ...tokenKey(record.hash), ...tokensOfUserIndex(input.userId, id), ...allTokensIndex(id), type: "token", nameLower: record.name.toLowerCase(), ...record });
  return { record, token };
}

export async function findToken(plain: string): Promise<TokenRecord | undefined> {
  const key = tokenKey(hashToken(plain));
  return getItem<TokenRecord>(key.pk, key.sk, false);
}

export const isExpired = (record: TokenRecord, now = new Date()) => !!record.expiresAt && now.toISOString().slice(0, 10) >= record.expiresAt;

export function isUsable(record: TokenRecord, now = new Date()): boolean {
  return !record.revoked && !isExpired(record, now);
}

/** GitLab updates `last_used_at` at most once per 10 minutes per token. */
export const LAST_USED_THROTTLE_MS = 10 * 60 * 1000;

/**
 * Records a use of the token unless one was recorded within the throttle window: one conditional
 * write at most per window, however many requests (and processes) use the token meanwhile. The
 * newest `lastUsedAt` of a user's tokens is the user's last activity (`user-activity.ts`); a token's
 * first use of a day also notes the day on the user's activity item, which `GET /user/activities`
 * Queries by day.
 */
export async function recordTokenUse(record: TokenRecord, now = new Date()): Promise<void> {
  const since = new Date(now.getTime() - LAST_USED_THROTTLE_MS).toISOString();
  const last = record.lastUsedAt ?? "";
  if (last > since) return;
  const at = now.toISOString();
  const day = at.slice(0, 10);
  try {
    // A missing or null `lastUsedAt` compares false, so NOT lets it through.
    await updateItem({ ...tokenKey(record.hash), update: "SET lastUsedAt = :at", condition: "attribute_exists(pk) AND NOT lastUsedAt > :since", values: { ":at": at, ":since": since } });
    record.lastUsedAt = at;
    if (last < day) await putItem(userActivityItem(record.userId, day));
  } catch (err) {
    // Another request recorded it first; or the disk is full, where a read must still be served
    // and the request that makes room (a deletion) must not fail on this note before it starts.
    if (!isConditionFailure(err) && !isOutOfSpace(err)) throw err;
  }
}

/** One token by id (the all-tokens index), or undefined. */
export async function findTokenById(id: number): Promise<TokenRecord | undefined> {
  const page = await queryPage<TokenRecord>({ index: GSI2, pk: allTokensIndex(id).gsi2pk, skFrom: pad(id), skTo: pad(id), offset: 0, limit: 1 });
  return page.items[0];
}

export interface TokenFilters {
  /** Whose tokens; undefined = every user's (administrators). */
  userId?: number;
  state?: "active" | "inactive";
  revoked?: boolean;
  search?: string;
  createdBefore?: string;
  createdAfter?: string;
  lastUsedBefore?: string;
  lastUsedAfter?: string;
}

/** Tokens newest first, filtered inside the Query (GitLab's `GET /personal_access_tokens`). */
export async function listTokens(f: TokenFilters, offset: number, limit: number) {
  const parts: string[] = [];
  const values: Record<string, unknown> = {};
  const today = new Date().toISOString().slice(0, 10);
  const expired = "(attribute_type(expiresAt, :string) AND expiresAt <= :today)";
  // DynamoDB refuses unused expression values, so each state names only its own.
  if (f.state) Object.assign(values, { ":revokedState": f.state === "inactive", ":string": "S", ":today": today });
  if (f.state === "active") parts.push(`revoked = :revokedState AND NOT ${expired}`);
  if (f.state === "inactive") parts.push(`(revoked = :revokedState OR ${expired})`);
  if (f.revoked !== undefined) (parts.push("revoked = :revoked"), (values[":revoked"] = f.revoked));
  if (f.search) (parts.push("contains(nameLower, :search)"), (values[":search"] = f.search.toLowerCase()));
  if (f.createdBefore) (parts.push("createdAt < :createdBefore"), (values[":createdBefore"] = f.createdBefore));
  if (f.createdAfter) (parts.push("createdAt > :createdAfter"), (values[":createdAfter"] = f.createdAfter));
  if (f.lastUsedBefore) (parts.push("lastUsedAt < :lastUsedBefore"), (values[":lastUsedBefore"] = f.lastUsedBefore));
  if (f.lastUsedAfter) (parts.push("lastUsedAt > :lastUsedAfter"), (values[":lastUsedAfter"] = f.lastUsedAfter));
  const filter = parts.length ? { expression: parts.join(" AND "), values } : undefined;
  const range: { index: typeof GSI1 | typeof GSI2; pk: string } =
    f.userId !== undefined ? { index: GSI1, pk: tokensOfUserIndex(f.userId, 0).gsi1pk } : { index: GSI2, pk: allTokensIndex(0).gsi2pk };
  return queryPage<TokenRecord>({ ...range, filter, offset, limit });
}

export async function revokeToken(hash: string): Promise<void> {
  forgetCachedToken(hash);
  const key = tokenKey(hash);
  await updateItem({ ...key, update: "SET revoked = :t", values: { ":t": true }, condition: "attribute_exists(pk)" });
}

export function tokenView(record: TokenRecord, plain?: string) {
  return {
    id: record.id,
    name: record.name,
    revoked: record.revoked,
    created_at: record.createdAt,
    description: record.description ?? null,
    scopes: record.scopes,
    user_id: record.userId,
    last_used_at: record.lastUsedAt ?? null,
    active: isUsable(record),
    expires_at: record.expiresAt,
    ...(record.impersonation ? { impersonation: true } : {}),
    ...(plain ? { token: plain } : {}),
  };
}
