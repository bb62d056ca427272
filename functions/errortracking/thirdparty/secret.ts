/**
 * Encryption of the third-party tracker token (GitLab: `attr_encrypted :token, aes-256-gcm`). The
 * token must be recoverable (it is sent to the tracker), so it is encrypted, not hashed.
 *
 * Key: `FORGELINE_SECRET_KEY` (32 bytes, base64 or 64 hex characters). On AWS it is required. Locally,
 * when unset, a random key is generated once and kept in `<data dir>/secret_key` (mode 0600): no
 * well-known development key exists, so a copied database is useless without its data folder.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../../platform/config.js";

const VERSION = "v1";
let cached: { source: string; key: Buffer } | undefined;

function parseKey(raw: string): Buffer {
  const s = raw.trim();
  const key = /^[0-9a-f]{64}$/i.test(s) ? Buffer.from(s, "hex") : Buffer.from(s, "base64");
  if (key.length !== 32) throw new Error("FORGELINE_SECRET_KEY must be 32 bytes (base64 or 64 hex characters)");
  return key;
}

function localKey(dir: string): Buffer {
  const file = join(dir, "secret_key");
  try {
    return parseKey(readFileSync(file, "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(dir, { recursive: true });
  try {
    // `wx`: two processes on one data folder (server and test worker) must end up with one key.
    writeFileSync(file, randomBytes(32).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return parseKey(readFileSync(file, "utf8"));
}

export function secretKey(): Buffer {
  const env = process.env.FORGELINE_SECRET_KEY;
  const source = env ? `env:${env}` : `dir:${dataDir()}`;
  if (cached?.source === source) return cached.key;
  if (!env && process.env.AWS_LAMBDA_FUNCTION_NAME) throw new Error("FORGELINE_SECRET_KEY is required on AWS");
  const key = env ? parseKey(env) : localKey(dataDir());
  cached = { source, key };
  return key;
}

/** `v1:<iv>:<tag>:<ciphertext>` (base64url parts). */
export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(":");
}

export function decryptSecret(stored: string): string {
  const [version, iv, tag, data] = stored.split(":");
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error("unreadable secret");
  const decipher = createDecipheriv("aes-256-gcm", secretKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
