/**
 * One ingest request, in the order that keeps rejections cheap: project gate and key from the query
 * or header (cached reads), rate limit, then the body (bounded read, decode, parse), the envelope
 * `dsn` when that is the only credential, and finally SQS. Only a successful send earns the 200.
 *
 * Status choices (`gitlab-api.md` B.5, where the issue does not override it):
 *  - 404 for an unknown project, tracking disabled or not integrated, or Monitor disabled (one message
 *    for all three, so a private project's existence is not revealed); 404 for an unknown, inactive or
 *    other project's key (GitLab's answer for a bad key).
 *  - 400 when no key is given (GitLab: "Failed to parse sentry request"); 401 for a wrong secret or
 *    two different keys in one request.
 *  - 415 for a Content-Type outside the accepted list or an unknown Content-Encoding.
 *  - 400 malformed, 413 too large, 429 rate limited; 503 + Retry-After when DynamoDB/SQS fail.
 */
import { credentialsFromRequest, combineCredentials, parseDsn, plausibleKey, secretMatches, type Credentials } from "./auth.js";
import { decodeBody } from "./decode.js";
import { ingestLimits, rateLimitHeaders, takeToken } from "./limits.js";
import { clientKey, projectGate, type KeyView } from "./lookup.js";
import { buildMessages, parseEnvelopeBody, parseStore, type ParsedBody } from "./messages.js";
import { enqueue } from "./enqueue.js";
import { fail, ok, type Failure, type Result } from "./problem.js";

export type Endpoint = "store" | "envelope";

export interface IngestRequest {
  endpoint: Endpoint;
  project: string;
  query(name: string): string | undefined;
  header(name: string): string | undefined;
  /** Reads the raw body, failing with 413 past `max` bytes. */
  body(max: number): Promise<Result<Buffer>>;
}

export type IngestOutcome = { ok: true; id: string; queued: number } | Failure;

/**
 * Content types SDKs send (`sentry-protocol.md` C.3, E.8): none (Node), envelope, JSON, text/plain,
 * raven's octet-stream, and the two form types browsers use to avoid CORS preflights. The body is
 * always read as the endpoint's format, whatever the type says.
 */
const ACCEPTED_TYPES = new Set(["", "application/x-sentry-envelope", "application/json", "text/plain", "application/octet-stream", "application/x-www-form-urlencoded", "multipart/form-data"]);

const NOT_ACCEPTING = "404 Not Found: no such project, or integrated error tracking is not enabled for it";

async function authorize(projectId: number, creds: Credentials): Promise<Result<KeyView>> {
  if (!creds.key) return fail(400, "missing sentry_key: give it in the query string, the X-Sentry-Auth header or the envelope dsn");
  const key = plausibleKey(creds.key) ? await clientKey(creds.key) : undefined;
  // A key item with a malformed id is treated as absent: its messages could not satisfy the contract.
  if (!key || key.active !== true || key.projectId !== projectId || !Number.isSafeInteger(key.id) || key.id <= 0) return fail(404, "unknown or inactive client key for this project");
  if (creds.secret !== undefined && !secretMatches(creds.secret, key.secretHash)) return fail(401, "invalid sentry_secret");
  const wait = takeToken(key.id);
  if (wait !== undefined) return fail(429, "rate limit exceeded for this client key", rateLimitHeaders(wait));
  return ok(key);
}

export async function ingest(req: IngestRequest): Promise<IngestOutcome> {
  const limits = ingestLimits();
  const type = (req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!ACCEPTED_TYPES.has(type)) return fail(415, `unsupported Content-Type: ${type.slice(0, 64)}`);
  const gate = await projectGate(req.project);
  if (!gate?.accepting) return fail(404, NOT_ACCEPTING);

  const outer = credentialsFromRequest(req.query, req.header);
  if (!outer.ok) return outer;
  // With a key outside the body, a bad key or an exhausted bucket is refused before reading the body.
  let key: Result<KeyView> | undefined = outer.value.key ? await authorize(gate.projectId, outer.value) : undefined;
  if (key && !key.ok) return key;

  const raw = await req.body(limits.maxRequestBytes);
  if (!raw.ok) return raw;
  const decoded = await decodeBody(raw.value, req.header("content-encoding"), req.endpoint === "store" ? limits.maxEventBytes : limits.maxDecompressedBytes);
  if (!decoded.ok) return decoded;
  const parsed: Result<ParsedBody> = req.endpoint === "store" ? await parseStore(decoded.value, limits) : parseEnvelopeBody(decoded.value, limits);
  if (!parsed.ok) return parsed;

  if (parsed.value.dsn !== undefined || !key) {
    const all = combineCredentials([outer.value, parseDsn(parsed.value.dsn)]);
    if (!all.ok) return all;
    if (!key) key = await authorize(gate.projectId, all.value);
    else if (all.value.secret !== outer.value.secret && !secretMatches(all.value.secret!, key.value.secretHash)) return fail(401, "invalid sentry_secret");
    if (!key.ok) return key;
  }

  const bodies = buildMessages(parsed.value.units, { projectId: gate.projectId, keyId: key.value.id, receivedAt: new Date().toISOString() });
  if (bodies.length > 0) await enqueue(bodies);
  return { ok: true, id: parsed.value.responseId, queued: bodies.length };
}
