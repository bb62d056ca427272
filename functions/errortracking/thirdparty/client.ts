/**
 * The tracker web API client (GitLab's `ErrorTracking::SentryClient`, reference B.9): Bearer token,
 * no redirects, any status outside 200–204 → `Sentry response status code: <code>`, a 1 MB body cap →
 * `Sentry API response is too big`, connection failures → `Connection refused` / `Connection to
 * Sentry timed out`. Works against Sentry and against this service's own `/api/0/` API.
 * Every call goes through the guarded outbound client: a URL the filter refuses answers GitLab's
 * `URL is blocked: …` and nothing is sent.
 */
import { outboundPolicy } from "../../identity/domain/settings.js";
import { outboundFetch } from "../../platform/outbound/client.js";
import { BlockedUrlError } from "../../platform/outbound/policy.js";

export class TrackerError extends Error {
  constructor(message: string, readonly kind: "status" | "size" | "connection" | "keys" | "blocked" = "status", readonly status?: number) {
    super(message);
  }
}

export const MAX_BODY_BYTES = 1024 * 1024;
export const TIMEOUT_MS = Number(process.env.FORGELINE_TRACKER_TIMEOUT_MS ?? 10_000);

export interface TrackerResponse<T> {
  body: T;
  headers: Headers;
}

/** Sentry answers 404 to doubled slashes, so GitLab squeezes them (outside the scheme). */
export const squeeze = (url: string) => url.replace(/([^:])\/{2,}/g, "$1/");

async function readCapped(res: Response): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw new TrackerError("Sentry API response is too big", "size");
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new TrackerError("Sentry API response is too big", "size");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

type Failure = { code?: string; name?: string; cause?: { name?: string } };

function connectionMessage(err: unknown): string {
  const e = err as Failure;
  if (e.name === "TimeoutError" || e.cause?.name === "TimeoutError" || e.code === "ETIMEDOUT") return "Connection to Sentry timed out";
  if (e.code === "ECONNREFUSED") return "Connection refused";
  return "Connection to Sentry failed";
}

export async function trackerRequest<T>(method: "GET" | "PUT", url: string, token: string, body?: unknown): Promise<TrackerResponse<T>> {
  let res: Response;
  try {
    res = await outboundFetch(
      squeeze(url),
      {
        method,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
      await outboundPolicy(),
    );
  } catch (err) {
    if (err instanceof BlockedUrlError) throw new TrackerError(err.message, "blocked");
    throw new TrackerError(connectionMessage(err), "connection");
  }
  if (res.status < 200 || res.status > 204) {
    await res.body?.cancel().catch(() => undefined);
    throw new TrackerError(`Sentry response status code: ${res.status}`, "status", res.status);
  }
  let text: string;
  try {
    text = await readCapped(res);
  } catch (err) {
    if (err instanceof TrackerError) throw err;
    throw new TrackerError(connectionMessage(err), "connection");
  }
  try {
    return { body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
  } catch {
    throw new TrackerError("Sentry API response is not valid JSON", "keys");
  }
}

/** `Link: <…>; rel="next"; results="true"; cursor="…"` → the cursors that have results (GitLab's PaginationParser). */
export function parseLink(header: string | null): { next?: string; previous?: string } {
  const out: { next?: string; previous?: string } = {};
  for (const part of (header ?? "").split(/,(?=\s*<)/)) {
    const rel = /rel="(next|previous)"/.exec(part)?.[1] as "next" | "previous" | undefined;
    const cursor = /cursor="([^"]*)"/.exec(part)?.[1];
    if (rel && cursor && /results="true"/.test(part)) out[rel] = cursor;
  }
  return out;
}
