/**
 * GitLab's custom headers and URL variables of a project hook: name → value pairs whose values are
 * secrets (an `Authorization` header, a password in the URL), kept encrypted on the hook item and
 * shown by name only. At delivery a custom header is sent with the request (its value masked in the
 * recent deliveries) and each `{name}` of the hook's URL is replaced by its variable; every request
 * still goes through the one guarded outbound client, which checks the URL as sent.
 */
import { isConditionFailure, updateItem } from "../../platform/db/table.js";
import { ApiError } from "../../platform/http/errors.js";
import { decryptSecret, encryptSecret } from "../thirdparty/secret.js";
import { findHook, forgetProjectHooks, hookKey, type HookRecord } from "./store.js";

export type Extra = "customHeaders" | "urlVariables";

/** GitLab's refusal of a key or value its validation rejects. */
export const illegal = () => new ApiError(422, { message: "Illegal key or value" });

/** The headers every delivery sets itself (a custom header may not replace them), and those HTTP keeps to itself. */
const RESERVED_HEADERS = new Set(["content-type", "user-agent", "idempotency-key", "host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade", "te", "trailer", "expect"]);

/** Whether `key` may name a custom header (an HTTP token, not a delivery header) or a URL variable (GitLab's `\w+`). */
export function validKey(extra: Extra, key: string): boolean {
  if (extra === "urlVariables") return /^\w{1,255}$/.test(key);
  return /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,255}$/.test(key) && !RESERVED_HEADERS.has(key.toLowerCase()) && !key.toLowerCase().startsWith("x-gitlab-");
}

/** A value fits in a header (no control characters) or a URL, at most 2048 characters (GitLab's limit). */
export const validValue = (value: string) => value.length > 0 && value.length <= 2048 && !/[\x00-\x1f\x7f]/.test(value);

/**
 * Sets (`value`) or removes (undefined) one entry, as a conditional write over the map the hook had,
 * so two changes at once both land (the loser reads again). False when the entry to remove is absent.
 */
export async function changeExtra(hook: HookRecord, extra: Extra, key: string, value: string | undefined): Promise<boolean> {
  let current = hook[extra];
  for (let attempt = 0; attempt < 5; attempt++) {
    if (value === undefined && !(current && Object.hasOwn(current, key))) return false;
    const next = { ...current };
    if (value === undefined) delete next[key];
    else next[key] = encryptSecret(value);
    try {
      await updateItem({
        ...hookKey(hook.projectId, hook.id),
        update: "SET #extra = :next",
        condition: current ? "#extra = :current" : "attribute_exists(pk) AND attribute_not_exists(#extra)",
        names: { "#extra": extra },
        values: current ? { ":next": next, ":current": current } : { ":next": next },
      });
      forgetProjectHooks(hook.projectId);
      return true;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const fresh = await findHook(hook.projectId, hook.id);
      if (!fresh) throw new ApiError(404, { message: "404 Not found" });
      current = fresh[extra];
    }
  }
  throw new ApiError(409, { message: "The hook changed meanwhile; please try again." });
}

/** The decrypted entries of a hook's map. */
export const entries = (map: Record<string, string> | undefined) => Object.entries(map ?? {}).map(([k, v]) => [k, decryptSecret(v)] as const);

/** The hook's URL with its variables in place, or the names it lacks (GitLab refuses such a delivery). */
export function interpolatedUrl(hook: HookRecord): { url: string } | { missing: string[] } {
  const vars = new Map(entries(hook.urlVariables));
  const missing = [...hook.url.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((k) => !vars.has(k));
  if (missing.length) return { missing: [...new Set(missing)] };
  return { url: hook.url.replace(/\{(\w+)\}/g, (_, k: string) => vars.get(k)!) };
}
