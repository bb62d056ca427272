/**
 * Typed outcomes of the ingest pipeline. Parsers and checks return a `Result` instead of throwing, so
 * every rejection carries its status and a reason meant for the SDK's log (`X-Sentry-Error`), and
 * nothing a client sends can surface as an unhandled exception (a 5xx).
 */
export interface IngestFailure {
  status: 400 | 401 | 403 | 404 | 413 | 415 | 429 | 503;
  /** One line for the SDK's log; never echoes body bytes or secrets. */
  reason: string;
  headers?: Record<string, string>;
}

export type Failure = { ok: false; error: IngestFailure };
export type Result<T> = { ok: true; value: T } | Failure;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const fail = (status: IngestFailure["status"], reason: string, headers?: Record<string, string>): Failure => ({
  ok: false,
  error: { status, reason, headers },
});

/** A dependency (DynamoDB, SQS) failed: answered 503 + Retry-After, never acknowledged with 200. */
export class Unavailable extends Error {
  constructor(readonly dependency: string, options?: { cause?: unknown }) {
    super(`${dependency} unavailable`, options);
    this.name = "Unavailable";
  }
}

/** Lowercase 32-hex form of a Sentry id (`event_id` may arrive dashed or uppercase), or undefined. */
export function normalizeId(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 64) return undefined;
  const id = value.replace(/-/g, "").toLowerCase();
  return /^[0-9a-f]{32}$/.test(id) ? id : undefined;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A refusal raised deep inside streaming code (the body reader, a decoder, the envelope framer,
 * the decode budget), where returning a `Result` through every chunk would obscure the loop; the
 * pipeline turns it back into its `Failure`.
 */
export class Refusal extends Error {
  constructor(readonly failure: IngestFailure) {
    super(failure.reason);
    this.name = "Refusal";
  }
}

export const refuse = (status: IngestFailure["status"], reason: string, headers?: Record<string, string>): Refusal => new Refusal({ status, reason, headers });
