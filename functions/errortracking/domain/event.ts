/**
 * What the consumer needs from one Sentry event, following GitLab's collector rules
 * (`collect_error_service.rb`), made tolerant of what real SDKs send (sentry-protocol.md D.6):
 * - the exception used is the first `exception.values[]` entry with a stack trace, else the first;
 * - `name` = its `type`, `description` = its `value`; an entry without `type` next to a `message`
 *   (Node's `captureMessage`) makes a message event, as does an event with no exception at all;
 * - `actor` (culprit) = `transaction`, else `"<function>(<module>)"` of the exception's last frame;
 *   a frame without a function or a module is written as Sentry writes it (`frameCulprit`);
 * - timestamps: unix seconds (number or numeric string) or ISO (a missing zone means UTC).
 * Nothing here throws on odd input: a valid queue message must never become a poison message.
 */
import { groupingOf } from "./grouping.js";

type Obj = Record<string, unknown>;

/** What groups an event into an error and titles it; the grouped error stores the same fields. */
export interface ErrorIdentity {
  errorId: number;
  name: string;
  description: string;
  actor: string;
  platform: string;
  /** Sentry's issue type: `error` for exceptions, `default` for messages. */
  type: "error" | "default";
}

export interface ParsedEvent extends ErrorIdentity {
  occurredAt: string;
  environment: string | null;
  level: string | null;
  release: string | null;
  /** `id:…`, `username:…`, `email:…` or `ip:…` (the first the SDK gave, Sentry's precedence), or null. */
  user: string | null;
}

const obj = (v: unknown): Obj | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : typeof v === "number" ? String(v) : undefined);
/** Null bytes are legal JSON but useless in titles (GitLab scrubs them too). */
const clean = (s: string, max: number) => s.replace(/\u0000/g, "").slice(0, max);

export function exceptionValues(payload: Obj): Obj[] {
  const exc = payload.exception;
  // Go sends an array and raven-go a single object; ingest normalises, but be lenient anyway.
  const values = Array.isArray(exc) ? exc : Array.isArray(obj(exc)?.values) ? (obj(exc)!.values as unknown[]) : obj(exc) ? [exc] : [];
  return values.map(obj).filter((v): v is Obj => !!v);
}

export function framesOf(entry: Obj | undefined): Obj[] {
  const frames = obj(entry?.stacktrace)?.frames;
  return Array.isArray(frames) ? frames.map(obj).filter((f): f is Obj => !!f) : [];
}

/** The entry GitLab reads: the first with a non-empty stack trace, else the first. */
export function mainException(payload: Obj): Obj | undefined {
  const values = exceptionValues(payload);
  return values.find((v) => framesOf(v).length > 0) ?? values[0];
}

/** `message` may be a string or `{formatted, message}`; raven and Python also send `logentry`. */
export function messageOf(payload: Obj): { text?: string; template?: string } {
  const m = payload.message;
  const entry = obj(m) ?? obj(payload.logentry);
  const template = str(entry?.message);
  const formatted = str(m) ?? str(entry?.formatted) ?? (template !== undefined ? formatParams(template, entry?.params) : undefined);
  // Sentry groups parameterised messages by their template (`"User %s failed"`), not the filled text.
  return { text: formatted, template: template ?? formatted };
}

/** printf-style placeholders as Python's `%` operator reads them: `%s`, `%(name)s`, `%5.2f`, `%%`. */
const PLACEHOLDER = /%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[hlL]?([diouxXeEfFgGcrs%])/g;

/**
 * The text of a `logentry` sent without `formatted` (sentry-cli's `-m "… %s" -a …`, Python's
 * logging): Relay fills the template's placeholders from `params` — positional from a list, named
 * from an object — and keeps the template as it is when they do not match.
 */
export function formatParams(template: string, params: unknown): string {
  if (params === undefined || params === null) return template;
  let next = 0;
  let mismatch = false;
  const text = template.replace(PLACEHOLDER, (whole, name: string | undefined, conversion: string) => {
    if (conversion === "%") return "%";
    const value = name !== undefined ? obj(params)?.[name] : Array.isArray(params) ? params[next++] : undefined;
    if (value === undefined) {
      mismatch = true;
      return whole;
    }
    return typeof value === "string" ? value : JSON.stringify(value);
  });
  return mismatch ? template : text;
}

const JS_PLATFORMS = new Set(["javascript", "node"]);

/**
 * GitLab's `"<function>(<module>)"` when the frame has both; otherwise Sentry's culprit of a frame
 * (`get_frame_culprit`): the module, else the file name, then the function or `?` — `fn(file)` for
 * JavaScript, `file in fn` for everything else — instead of GitLab's `?(mod)` or `/()`.
 */
export function frameCulprit(frame: Obj, platform: string | undefined): string | undefined {
  const fn = str(frame.function);
  const mod = str(frame.module);
  const named = fn !== undefined && fn !== "?";
  if (named && mod) return `${fn}(${mod})`;
  const file = mod ?? str(frame.filename) ?? str(frame.abs_path);
  if (!file) return named ? fn : undefined;
  return JS_PLATFORMS.has(str(frame.platform) ?? platform ?? "") ? `${named ? fn : "?"}(${file})` : `${file} in ${named ? fn : "?"}`;
}

export function parseTimestamp(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v * 1000;
  if (typeof v !== "string") return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Number(v) * 1000;
  const m = /^(\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?)(\.\d+)?(Z|[+-]\d\d:?\d\d)?$/i.exec(v.trim());
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]!.replace(" ", "T")}${(m[2] ?? "").slice(0, 4)}${m[3] ?? "Z"}`);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Event time, clamped so a client clock in the future cannot pin an error to the top of the list. */
export function occurredAt(payload: Obj, receivedAt: string): string {
  const received = Date.parse(receivedAt);
  const at = parseTimestamp(payload.timestamp);
  if (at === undefined || at > received + 60_000) return receivedAt;
  return new Date(at).toISOString();
}

export function userIdentity(payload: Obj): string | null {
  const u = obj(payload.user);
  if (!u) return null;
  const ip = str(u.ip_address);
  for (const [kind, value] of [["id", str(u.id)], ["username", str(u.username)], ["email", str(u.email)], ["ip", ip === "{{auto}}" ? undefined : ip]] as const) {
    if (value) return `${kind}:${value}`;
  }
  return null;
}

export function parseEvent(projectId: number, payload: Obj, receivedAt: string): ParsedEvent {
  const exc = mainException(payload);
  const message = messageOf(payload);
  const isMessage = !str(exc?.type) && (!!message.text || !exc);
  const frames = framesOf(exc);
  const last = frames[frames.length - 1];
  const frameActor = last ? frameCulprit(last, str(payload.platform)) : undefined;
  const actor = clean(str(payload.transaction) ?? frameActor ?? str(payload.culprit) ?? "", 255);
  const platform = clean(str(payload.platform) ?? "other", 255);
  // An exception without a type (and no message beside it) is titled "Error", as Sentry does.
  const name = clean(isMessage ? (message.text ?? str(exc?.value) ?? "<no message>") : (str(exc?.type) ?? "Error"), 255);
  const description = clean(isMessage ? (message.text ?? str(exc?.value) ?? "") : (str(exc?.value) ?? ""), 1024);
  const defaults = isMessage ? ["message", message.template ?? name] : ["exception", name, actor, platform];
  return {
    errorId: groupingOf(projectId, payload.fingerprint, defaults),
    name,
    description,
    actor,
    platform,
    type: isMessage ? "default" : "error",
    occurredAt: occurredAt(payload, receivedAt),
    environment: str(payload.environment)?.slice(0, 255) ?? null,
    level: str(payload.level)?.slice(0, 64) ?? null,
    release: str(payload.release)?.slice(0, 200) ?? null,
    user: userIdentity(payload),
  };
}
