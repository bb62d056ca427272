/**
 * Ingest limits, configurable by environment (read once per process; `resetIngestLimits()` re-reads),
 * and the per-key rate limiter.
 *
 * Defaults follow Sentry's published limits (`sentry-protocol.md` C.7): 1 MiB per event after
 * decompression, 20 MiB per request as sent, 50 MiB per envelope after decompression (streamed, never
held whole: `pipeline.ts`), 100 events and
 * 100 session updates queued per envelope (more are accepted and dropped, as Relay drops sessions).
 *
 * Rate limiting is a token bucket per client key **per function instance, in memory**: each request
 * takes one token; the bucket refills at `FORGELINE_INGEST_RATE_PER_SECOND` up to
 * `FORGELINE_INGEST_RATE_BURST`. With N warm Lambda instances a key may reach N × the rate; the bound
 * is per instance by design (no shared counter on the hot path). A rate of 0 disables the limiter.
 */
export interface IngestLimits {
  maxRequestBytes: number;
  maxDecompressedBytes: number;
  maxEventBytes: number;
  maxEventsPerEnvelope: number;
  maxSessionsPerEnvelope: number;
  /** Bytes all requests of one process may hold of decoded bodies at once (`budget.ts`); past it, 429. */
  decodeBudgetBytes: number;
  ratePerSecond: number;
  rateBurst: number;
  /** How long a key/setting lookup is trusted: the bound on "a deleted key stops ingesting". */
  cacheTtlMs: number;
  cacheMaxEntries: number;
}

const MiB = 1024 * 1024;

function num(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

let cached: IngestLimits | undefined;

export function ingestLimits(): IngestLimits {
  cached ??= {
    maxRequestBytes: num("FORGELINE_INGEST_MAX_REQUEST_BYTES", 20 * MiB),
    maxDecompressedBytes: num("FORGELINE_INGEST_MAX_DECOMPRESSED_BYTES", 50 * MiB),
    maxEventBytes: num("FORGELINE_INGEST_MAX_EVENT_BYTES", 1 * MiB),
    maxEventsPerEnvelope: num("FORGELINE_INGEST_MAX_EVENTS_PER_ENVELOPE", 100),
    maxSessionsPerEnvelope: num("FORGELINE_INGEST_MAX_SESSIONS_PER_ENVELOPE", 100),
    // 64 MiB: a small share of a 512 MB Lambda or of a small 2-core server, yet room for dozens of
    // envelopes at once (a streamed envelope holds its decoder and one event, not its body).
    decodeBudgetBytes: num("FORGELINE_INGEST_DECODE_BUDGET_BYTES", 64 * MiB),
    ratePerSecond: num("FORGELINE_INGEST_RATE_PER_SECOND", 100),
    rateBurst: Math.max(1, num("FORGELINE_INGEST_RATE_BURST", 1000)),
    // Capped at 5 s: the issue promises that deleting a key stops ingestion "at once" (bounded).
    cacheTtlMs: Math.min(5000, num("FORGELINE_INGEST_CACHE_TTL_MS", 5000)),
    cacheMaxEntries: Math.max(1, num("FORGELINE_INGEST_CACHE_MAX_ENTRIES", 10_000)),
  };
  return cached;
}

/** For tests and the local runtime, which may change the environment after first use. */
export function resetIngestLimits(): void {
  cached = undefined;
  buckets.clear();
}

interface Bucket {
  tokens: number;
  at: number;
}
const buckets = new Map<number, Bucket>();

/** Takes one token for `keyId`; returns the seconds to wait when the bucket is empty, else undefined. */
export function takeToken(keyId: number, now = Date.now()): number | undefined {
  const { ratePerSecond: rate, rateBurst: burst, cacheMaxEntries } = ingestLimits();
  if (rate <= 0) return undefined;
  let b = buckets.get(keyId);
  if (!b) {
    // Bounded memory: forget the oldest bucket (a forgotten key starts full again, erring on accepting).
    if (buckets.size >= cacheMaxEntries) buckets.delete(buckets.keys().next().value as number);
    b = { tokens: burst, at: now };
    buckets.set(keyId, b);
  }
  b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * rate);
  b.at = now;
  if (b.tokens >= 1) {
    b.tokens -= 1;
    return undefined;
  }
  return Math.max(1, Math.ceil((1 - b.tokens) / rate));
}

/** The 429 headers SDKs honour (`sentry-protocol.md` C.6): an empty category list means all. */
export function rateLimitHeaders(retryAfter: number): Record<string, string> {
  return { "Retry-After": String(retryAfter), "X-Sentry-Rate-Limits": `${retryAfter}::key` };
}
