/**
 * Event shape fixes done once at ingest, so the consumer sees one form (contract `ingestMessageSchema`):
 * `exception` as `{values: [...]}` (sentry-go sends an array, raven-go a single object), and every
 * message under `MAX_MESSAGE_BYTES` (SQS takes 256 KiB) by trimming in steps, least useful data first:
 * breadcrumbs, extra, frame variables, debug data → threads, contexts, request → long stack traces →
 * long strings → a minimal event. Each step re-measures, so typical events are never touched.
 */
import { isObject } from "./problem.js";

type Json = Record<string, unknown>;

export function normalizeException(event: Json): void {
  const exc = event.exception;
  let values: unknown[] | undefined;
  if (Array.isArray(exc)) values = exc;
  else if (isObject(exc)) values = Array.isArray(exc.values) ? exc.values : "values" in exc ? [] : [exc];
  const kept = (values ?? []).filter(isObject);
  if (kept.length > 0) event.exception = isObject(exc) && Array.isArray(exc.values) ? { ...exc, values: kept } : { values: kept };
  else delete event.exception;
}

const text = (v: unknown): boolean => (typeof v === "string" && v.trim() !== "") || (isObject(v) && (text(v.formatted) || text(v.message)));

/** What the consumer can group on: an exception, or a message (`message` or raven's `logentry`). */
export function hasGroupableContent(event: Json): boolean {
  const values = (event.exception as { values?: unknown[] } | undefined)?.values;
  return (Array.isArray(values) && values.length > 0) || text(event.message) || text(event.logentry);
}

/** A depth-bounded copy with long strings, arrays and objects cut: safe to serialise whatever came in. */
export function truncateDeep(value: unknown, maxString: number, maxArray: number, depth = 24): unknown {
  if (typeof value === "string") return value.length > maxString ? `${value.slice(0, maxString)}…` : value;
  if (typeof value !== "object" || value === null) return value;
  if (depth <= 0) return "[depth limit]";
  if (Array.isArray(value)) {
    const cut = value.length > maxArray ? [...value.slice(0, Math.ceil(maxArray / 2)), ...value.slice(-Math.floor(maxArray / 2))] : value;
    return cut.map((v) => truncateDeep(v, maxString, maxArray, depth - 1));
  }
  const out: Json = {};
  let n = 0;
  for (const [k, v] of Object.entries(value)) {
    if (n++ >= maxArray) break;
    out[k] = truncateDeep(v, maxString, maxArray, depth - 1);
  }
  return out;
}

function stacktraces(event: Json): Json[] {
  const found: Json[] = [];
  for (const holder of [event.exception, event.threads]) {
    const values = isObject(holder) && Array.isArray(holder.values) ? holder.values : [];
    for (const v of values) if (isObject(v) && isObject(v.stacktrace)) found.push(v.stacktrace);
  }
  return found;
}

function eachFrame(event: Json, fn: (frame: Json) => void): void {
  for (const st of stacktraces(event)) if (Array.isArray(st.frames)) st.frames.filter(isObject).forEach(fn);
}

const ESSENTIAL = ["event_id", "timestamp", "platform", "level", "logger", "transaction", "culprit", "release", "environment", "server_name", "fingerprint", "user", "tags", "message", "logentry", "exception", "sdk"];

/** Each step takes a private copy (from step 0) and returns the smaller event. */
const STEPS: Array<(e: Json) => Json> = [
  (e) => {
    for (const k of ["breadcrumbs", "extra", "debug_meta", "modules", "spans", "_meta", "measurements"]) delete e[k];
    eachFrame(e, (f) => delete f.vars);
    return e;
  },
  (e) => {
    for (const k of ["threads", "contexts", "request", "transaction_info"]) delete e[k];
    return e;
  },
  (e) => {
    // Sentry orders frames oldest first: keep the outermost 10 and the 40 nearest the error.
    for (const st of stacktraces(e)) if (Array.isArray(st.frames) && st.frames.length > 50) st.frames = [...st.frames.slice(0, 10), ...st.frames.slice(-40)];
    eachFrame(e, (f) => {
      if (Array.isArray(f.pre_context)) f.pre_context = f.pre_context.slice(-5);
      if (Array.isArray(f.post_context)) f.post_context = f.post_context.slice(0, 5);
    });
    return e;
  },
  (e) => truncateDeep(e, 2048, 100) as Json,
  (e) => truncateDeep(Object.fromEntries(ESSENTIAL.filter((k) => k in e).map((k) => [k, e[k]])), 256, 20, 8) as Json,
  minimal,
];

const FRAME_FIELDS = ["filename", "abs_path", "function", "module", "lineno", "colno", "in_app", "context_line"];
const SCALAR_FIELDS = ["event_id", "timestamp", "platform", "level", "release", "environment", "transaction", "culprit"];
const USER_FIELDS = ["id", "username", "email", "ip_address", "name"];

/** Only scalar fields survive, strings cut to 128 characters. */
function scalars(o: unknown, keys: string[]): Json {
  const out: Json = {};
  if (!isObject(o)) return out;
  for (const k of keys) {
    const v = o[k];
    if (typeof v === "string") out[k] = v.slice(0, 128);
    else if (typeof v === "number" || typeof v === "boolean") out[k] = v;
  }
  return out;
}

/**
 * The last resort, small by construction: about 100 strings of at most 128 characters, so even if
 * every character is escaped to six bytes (`\u0000`) it stays far below 240 KB.
 */
function minimal(e: Json): Json {
  const values = ((e.exception as { values?: unknown[] } | undefined)?.values ?? []).slice(0, 2).map((v) => {
    const frames = isObject(v) && isObject(v.stacktrace) && Array.isArray(v.stacktrace.frames) ? v.stacktrace.frames.slice(-5) : [];
    return { ...scalars(v, ["type", "value", "module"]), stacktrace: { frames: frames.map((f) => scalars(f, FRAME_FIELDS)) } };
  });
  const core: Json = scalars(e, SCALAR_FIELDS);
  if (isObject(e.user)) core.user = scalars(e.user, USER_FIELDS);
  if (Array.isArray(e.fingerprint)) core.fingerprint = e.fingerprint.slice(0, 10).filter((x) => typeof x === "string").map((x: string) => x.slice(0, 128));
  for (const k of ["message", "logentry"]) {
    const m = e[k];
    if (typeof m === "string") core[k] = m.slice(0, 1024);
    else if (isObject(m)) core[k] = scalars(m, ["message", "formatted"]);
  }
  if (values.length) core.exception = { values };
  return core;
}

export type Serialize = (payload: Json) => string | undefined;

/**
 * Serialises `payload` through `serialize` (which wraps it in the queue message) and trims it until
 * the message fits in `maxBytes`. Returns undefined only if even the minimal event does not fit.
 */
export function fitMessage(payload: Json, serialize: Serialize, maxBytes: number): string | undefined {
  let body = serialize(payload);
  if (body !== undefined && fits(body, maxBytes)) return body;
  let current = truncateDeep(payload, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) as Json;
  for (const step of STEPS) {
    current = step(current);
    body = serialize(current);
    if (body !== undefined && fits(body, maxBytes)) return body;
  }
  return undefined;
}

// A UTF-8 byte is at most 3 per UTF-16 unit, so most bodies are decided without counting bytes.
const fits = (s: string, max: number) => s.length * 3 <= max || Buffer.byteLength(s) <= max;
