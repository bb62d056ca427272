/**
 * Which client key a request claims, from the three places SDKs put it (`sentry-protocol.md` C.2,
 * E.2): the `sentry_key` query parameter (Node, browsers), the `X-Sentry-Auth` header in any field
 * order with any `sentry_version` (Python, Ruby, Go, raven; `Authorization: Sentry …` too), and the
 * envelope header `dsn` (Ruby). An empty value counts as absent (GitLab falls back from an empty
 * `sentry_key=`). When several are given they must agree, as Sentry requires. A `sentry_secret`
 * (or the DSN's password) is only ever compared with the key's stored SHA-256, in constant time.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { fail, ok, type Result } from "./problem.js";

export interface Credentials {
  key?: string;
  secret?: string;
}

/** `Sentry sentry_key=a, sentry_version=7` → `{sentry_key: "a", sentry_version: "7"}`. */
export function parseSentryAuth(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  const body = header.replace(/^\s*sentry\s+/i, "");
  for (const part of body.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (name && !(name in out)) out[name] = value;
  }
  return out;
}

/** The key and secret of a DSN (`http://pub:secret@host/path/1`; `pub:@` means no secret). */
export function parseDsn(dsn: string | undefined): Credentials {
  if (!dsn || dsn.length > 2048) return {};
  try {
    const url = new URL(dsn);
    return { key: decodeURIComponent(url.username) || undefined, secret: decodeURIComponent(url.password) || undefined };
  } catch {
    return {};
  }
}

/** Combines the sources; a key or secret given twice with different values is a 401. */
export function combineCredentials(sources: Credentials[]): Result<Credentials> {
  let key: string | undefined;
  let secret: string | undefined;
  for (const s of sources) {
    if (s.key) {
      if (key !== undefined && key !== s.key) return fail(401, "conflicting client keys in the request");
      key = s.key;
    }
    if (s.secret) {
      if (secret !== undefined && secret !== s.secret) return fail(401, "conflicting sentry_secret values in the request");
      secret = s.secret;
    }
  }
  return ok({ key, secret });
}

/** Credentials carried outside the body: query string first, then the auth header. */
export function credentialsFromRequest(query: (name: string) => string | undefined, header: (name: string) => string | undefined): Result<Credentials> {
  const authHeader = header("x-sentry-auth") ?? (/^\s*sentry\s/i.test(header("authorization") ?? "") ? header("authorization") : undefined);
  const fields = parseSentryAuth(authHeader);
  return combineCredentials([
    { key: query("sentry_key") || undefined, secret: query("sentry_secret") || undefined },
    { key: fields.sentry_key || undefined, secret: fields.sentry_secret || undefined },
  ]);
}

/** Public keys are `glet_` + hex; anything outside this alphabet cannot exist, so it is not looked up. */
export const plausibleKey = (key: string) => /^[A-Za-z0-9_-]{1,128}$/.test(key);

/**
 * The stored hash is SHA-256 of the secret (contract `ClientKeyRecord.secretHash`); hex is the
 * expected encoding, base64/base64url are accepted so the check does not depend on that choice.
 */
export function secretMatches(secret: string, secretHash: string | undefined): boolean {
  if (!secretHash) return false;
  const digest = createHash("sha256").update(secret, "utf8").digest();
  const stored = /^[0-9a-f]{64}$/i.test(secretHash) ? Buffer.from(secretHash, "hex") : Buffer.from(secretHash, secretHash.includes("-") || secretHash.includes("_") ? "base64url" : "base64");
  return stored.length === digest.length && timingSafeEqual(stored, digest);
}
