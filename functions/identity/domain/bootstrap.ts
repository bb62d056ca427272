/**
 * The first administrator. On an empty instance the runtime creates user `root` (admin) with a personal
 * access token that has every scope. The token is `FORGELINE_BOOTSTRAP_ADMIN_TOKEN` when set (for
 * scripts and CI), otherwise a random one that the caller prints once. There is no default secret.
 */
import { isConditionFailure, putItem } from "../../platform/db/table.js";
import { issueToken, SCOPES } from "./tokens.js";
import { insertUser } from "./users.js";

const marker = { pk: "BOOTSTRAP", sk: "ADMIN" };

export async function ensureBootstrapAdmin(token?: string): Promise<{ created: boolean; token?: string }> {
  if (token !== undefined && (token.length < 20 || token.length > 128 || /\s/.test(token))) {
    throw new Error("FORGELINE_BOOTSTRAP_ADMIN_TOKEN must be 20–128 characters without spaces");
  }
  try {
    await putItem({ ...marker, createdAt: new Date().toISOString() }, { expression: "attribute_not_exists(pk)" });
  } catch (err) {
    if (isConditionFailure(err)) return { created: false };
    throw err;
  }
  const root = await insertUser({ username: "root", name: "Administrator", email: "admin@example.com", admin: true });
  const issued = await issueToken({ userId: root.id, name: "bootstrap", scopes: [...SCOPES], expiresAt: null, plain: token });
  return { created: true, token: issued.token };
}
