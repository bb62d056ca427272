/**
 * The tracker web API client (GitLab's `ErrorTracking::SentryClient`, reference B.9): Bearer token,
 * no redirects, any status outside 200–204 → `Sentry response status code: <code>`, a 1 MB body cap →
 * `Sentry API response is too big`, connection failures → `Connection refused` / `Connection to
 * Sentry timed out`. Works against Sentry and against this service's own `/api/0/` API.
 */
export class TrackerError extends Error {
  constructor(message: string, readonly kind: "status" | "size" | "connection" | "keys" = "status", readonly status?: number) {
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

type Cause = { code?: string; name?: string; errors?: Cause[] };

function connectionMessage(err: unknown): string {
  const e = err as { name?: string; cause?: Cause };
  // Happy eyeballs: several addresses tried at once fail as an AggregateError of their causes.
  const code = e.cause?.code ?? e.cause?.errors?.[0]?.code;
  if (code && e.cause) e.cause.code = code;
  if (e.name === "TimeoutError" || e.cause?.name === "ConnectTimeoutError" || e.cause?.code === "UND_ERR_CONNECT_TIMEOUT") return "Connection to Sentry timed out";
  if (e.cause?.code === "ECONNREFUSED") return "Connection refused";
  if (e.cause?.code === "ENOTFOUND" || e.cause?.code === "EAI_AGAIN") return "Sentry host could not be resolved";
  return "Connection to Sentry failed";
}

export async function trackerRequest<T>(method: "GET" | "PUT", url: string, token: string, body?: unknown): Promise<TrackerResponse<T>> {
  let res: Response;
  try {
    res = await fetch(squeeze(url), {
      method,
      redirect: "manual",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
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
