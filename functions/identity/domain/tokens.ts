/**
 * Personal access tokens. Only the SHA-256 of a token is stored; the plain token is shown once, at
 * creation. Scopes follow GitLab: `api` (everything), `read_api` (reads), `read_user` (the user
 * endpoints), `read_repository`/`write_repository` (Git over HTTP, not the REST API), `sudo`.
 */
import { createHash, randomBytes } from "node:crypto";
import { getItem, nextId, putItem, updateItem } from "../../platform/db/table.js";
import { tokenKey, tokensOfUserIndex } from "./keys.js";
import { forgetCachedToken } from "./principal-cache.js";

export const SCOPES = ["api", "read_api", "read_user", "read_repository", "write_repository", "sudo"] as const;
export type Scope = (typeof SCOPES)[number];

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
  /** An impersonation token (issued by an administrator, listed apart from the user's own tokens). */
  impersonation?: boolean;
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

export async function issueToken(input: {
  userId: number;
  name: string;
  scopes: Scope[];
  expiresAt: string | null;
  /** A caller-chosen secret (bootstrap only); otherwise one is generated. */
  plain?: string;
  impersonation?: boolean;
}): Promise<{ record: TokenRecord; token: string }> {
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
    ...(input.impersonation ? { impersonation: true } : {}),
  };
  await putItem(
    { ...tokenKey(record.hash), ...tokensOfUserIndex(input.userId, id), type: "token", ...record },
    { expression: "attribute_not_exists(pk)" },
  );
  return { record, token };
}

export async function findToken(plain: string): Promise<TokenRecord | undefined> {
  const key = tokenKey(hashToken(plain));
  return getItem<TokenRecord>(key.pk, key.sk, false);
}

export function isUsable(record: TokenRecord, now = new Date()): boolean {
  if (record.revoked) return false;
  if (record.expiresAt && now.toISOString().slice(0, 10) >= record.expiresAt) return false;
  return true;
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
    description: null,
    scopes: record.scopes,
    user_id: record.userId,
    last_used_at: null,
    active: isUsable(record),
    expires_at: record.expiresAt,
    ...(record.impersonation ? { impersonation: true } : {}),
    ...(plain ? { token: plain } : {}),
  };
}
