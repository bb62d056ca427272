/**
 * One ingest request, in the order that keeps rejections cheap: what the request line and headers
 * say (content type, encoding, the key outside the body) is checked first, and a key given there is
 * authenticated (cached reads) before a byte of the body is read. The body then streams: decoded
 * chunk by chunk, framed item by item; an envelope's header line is authenticated (its `dsn`) before
 * the rest is decoded, and a refused request stops reading at once. Every kept event becomes its
 * queue message as it arrives; attachments and other dropped items pass by unbuffered. What a request
 * holds is charged to the process decode budget (`budget.ts`). Only a successful send earns the 200.
 *
 * Status choices (`gitlab-api.md` B.5, where the issue does not override it):
 *  - 404 with one text for an unknown project, tracking disabled or not integrated, Monitor
 *    disabled, and an unknown, inactive or other project's key: the answers are byte-identical, so
 *    nobody can learn which private projects exist or track errors; the reason goes to the debug log.
 *  - 400 when no key is given (GitLab: "Failed to parse sentry request"); 401 for a wrong secret or
 *    two different keys in one request.
 *  - 415 for a Content-Type outside the accepted list or an unknown Content-Encoding.
 *  - 400 malformed, 413 too large, 429 rate limited or decode budget spent; 503 + Retry-After when
 *    DynamoDB/SQS fail.
 */
import { credentialsFromRequest, combineCredentials, parseDsn, plausibleKey, secretMatches, type Credentials } from "./auth.js";
import { Meter } from "./budget.js";
import { collect, decodeChunks, parseCodings, type Chunks } from "./decode.js";
import { EnvelopeFramer, type FrameEvent } from "./envelope.js";
import { ingestLimits, rateLimitHeaders, takeToken, type IngestLimits } from "./limits.js";
import { clientKey, projectGate, type KeyView } from "./lookup.js";
import { buildMessages, EnvelopeUnits, keptItemLimit, parseStore } from "./messages.js";
import { enqueue } from "./enqueue.js";
import { log } from "../../platform/log.js";
import { fail, ok, Refusal, type Failure, type Result } from "./problem.js";

export type Endpoint = "store" | "envelope";

export interface IngestRequest {
  endpoint: Endpoint;
  project: string;
  query(name: string): string | undefined;
  header(name: string): string | undefined;
  /** The raw body as it arrives, counted on `meter.read`; throws a 413 `Refusal` past `max` bytes. */
  body(max: number, meter: Meter): Chunks;
}

export type IngestOutcome = { ok: true; id: string; queued: number } | Failure;

/**
 * Content types SDKs send (`sentry-protocol.md` C.3, E.8): none (Node), envelope, JSON, text/plain,
 * raven's octet-stream, and the two form types browsers use to avoid CORS preflights. The body is
 * always read as the endpoint's format, whatever the type says.
 */
const ACCEPTED_TYPES = new Set(["", "application/x-sentry-envelope", "application/json", "text/plain", "application/octet-stream", "application/x-www-form-urlencoded", "multipart/form-data"]);

/** The one answer for every reason a project does not take this key's events. */
export const NOT_ACCEPTING = "404 Not Found: no such project or client key, or integrated error tracking is not enabled for the project";
const MISSING_KEY = "missing sentry_key: give it in the query string, the X-Sentry-Auth header or the envelope dsn";

interface Authorized {
  projectId: number;
  key: KeyView;
}

function refusalReason(gate: Awaited<ReturnType<typeof projectGate>>, key: KeyView | undefined): string | undefined {
  if (!gate) return "no such project";
  if (!gate.accepting) return gate.off ?? "not accepting";
  if (!key) return "unknown client key";
  if (key.active !== true) return "inactive client key";
  if (key.projectId !== gate.projectId) return "client key of another project";
  // A key item with a malformed id is treated as absent: its messages could not satisfy the contract.
  if (!Number.isSafeInteger(key.id) || key.id <= 0) return "malformed client key record";
  return undefined;
}

async function authorize(project: string, creds: Credentials): Promise<Result<Authorized>> {
  if (!creds.key) return fail(400, MISSING_KEY);
  const [gate, key] = await Promise.all([projectGate(project), plausibleKey(creds.key) ? clientKey(creds.key) : undefined]);
  const reason = refusalReason(gate, key);
  if (reason) {
    log.debug("ingest refused", { reason });
    return fail(404, NOT_ACCEPTING);
  }
  if (creds.secret !== undefined && !secretMatches(creds.secret, key!.secretHash)) return fail(401, "invalid sentry_secret");
  const wait = takeToken(key!.id);
  if (wait !== undefined) return fail(429, "rate limit exceeded for this client key", rateLimitHeaders(wait));
  return ok({ projectId: gate!.projectId, key: key! });
}

const orThrow = <T>(r: Result<T>): T => {
  if (!r.ok) throw new Refusal(r.error);
  return r.value;
};

interface Run {
  req: IngestRequest;
  limits: IngestLimits;
  meter: Meter;
  outer: Credentials;
  auth: Authorized | undefined;
  receivedAt: string;
}

export async function ingest(req: IngestRequest): Promise<IngestOutcome> {
  const limits = ingestLimits();
  const type = (req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!ACCEPTED_TYPES.has(type)) return fail(415, `unsupported Content-Type: ${type.slice(0, 64)}`);
  const codings = parseCodings(req.header("content-encoding"));
  if (!codings.ok) return codings;
  const outer = credentialsFromRequest(req.query, req.header);
  if (!outer.ok) return outer;
  // Only an envelope can carry its key in the body; a store request without one is refused unread.
  if (!outer.value.key && req.endpoint === "store") return fail(400, MISSING_KEY);
  // With a key outside the body, a bad key or an exhausted bucket is refused before reading the body.
  const auth = outer.value.key ? await authorize(req.project, outer.value) : undefined;
  if (auth && !auth.ok) return auth;

  const meter = new Meter();
  try {
    const run: Run = { req, limits, meter, outer: outer.value, auth: auth?.value, receivedAt: new Date().toISOString() };
    const max = req.endpoint === "store" ? limits.maxEventBytes : limits.maxDecompressedBytes;
    const chunks = decodeChunks(req.body(limits.maxRequestBytes, meter), codings.value, max, meter);
    return req.endpoint === "store" ? await store(run, chunks) : await envelope(run, chunks);
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, error: err.failure };
    throw err;
  } finally {
    meter.close();
  }
}

async function store(run: Run, chunks: Chunks): Promise<IngestOutcome> {
  const parsed = orThrow(await parseStore(await collect(chunks, run.meter), run.limits));
  const bodies = buildMessages(parsed.units, { projectId: run.auth!.projectId, keyId: run.auth!.key.id, receivedAt: run.receivedAt });
  if (bodies.length > 0) await enqueue(bodies);
  return { ok: true, id: parsed.responseId, queued: bodies.length };
}

/** The envelope header's `dsn` authenticates the request when nothing else did, and must agree otherwise. */
async function authenticateEnvelope(run: Run, dsn: string | undefined): Promise<Authorized> {
  if (dsn === undefined && run.auth) return run.auth;
  const all = orThrow(combineCredentials([run.outer, parseDsn(dsn)]));
  if (!run.auth) return orThrow(await authorize(run.req.project, all));
  if (all.secret !== run.outer.secret && !secretMatches(all.secret!, run.auth.key.secretHash)) throw new Refusal({ status: 401, reason: "invalid sentry_secret" });
  return run.auth;
}

async function envelope(run: Run, chunks: Chunks): Promise<IngestOutcome> {
  const framer = new EnvelopeFramer({ keep: keptItemLimit(run.limits), meter: run.meter });
  const units = new EnvelopeUnits(run.limits);
  const bodies: string[] = [];
  let auth: Authorized | undefined;
  // Items are handled synchronously; only the header line waits (for its authentication).
  const item = (e: Extract<FrameEvent, { kind: "item" }>) => {
    const unit = units.add(e);
    if (!unit) return;
    // The event becomes its (trimmed) queue message now, so the request holds messages, not events.
    for (const body of buildMessages([unit], { projectId: auth!.projectId, keyId: auth!.key.id, receivedAt: run.receivedAt })) {
      run.meter.hold(body.length);
      bodies.push(body);
    }
  };
  const drainFramer = async () => {
    for (let e = framer.next(); e; e = framer.next()) {
      if (e.kind === "item") item(e);
      else {
        units.header(e.headers);
        auth = await authenticateEnvelope(run, units.dsn);
      }
    }
  };
  for await (const chunk of chunks) {
    framer.push(chunk);
    await drainFramer();
  }
  framer.end();
  await drainFramer();
  if (bodies.length > 0) await enqueue(bodies);
  return { ok: true, id: units.responseId(), queued: bodies.length };
}
