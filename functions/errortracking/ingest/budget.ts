/**
 * The process-wide decode budget: every ingest request charges what it holds of a decoded body
 * (its decoders' windows and buffers, the envelope line or item it is assembling, the queue messages
 * it has built) to one counter shared by the whole process, and gives it back as it goes and when it
 * ends. A charge that would pass `FORGELINE_INGEST_DECODE_BUDGET_BYTES` refuses the request with 429
 * and `Retry-After` (which SDKs back off on) instead of allocating, so a burst of large or hostile
 * bodies costs at most the budget however many arrive at once.
 *
 * Each request's `Meter` also records the largest amount it held and the bytes it read and inflated;
 * tests and the debug log read them (`onMeterClosed`), which is how the bounds are proved by counting.
 */
import { ingestLimits } from "./limits.js";
import { refuse } from "./problem.js";

let inUse = 0;

/** Seconds an SDK is asked to pause when the budget is spent: decoding frees it within moments. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

export interface MeterReading {
  /** Largest number of bytes held at once (decoder reservations + buffered decoded bytes + messages). */
  peakHeld: number;
  /** Request body bytes read, as sent (compressed). */
  read: number;
  /** Bytes that came out of the decoders (equal to `read` for an uncompressed body). */
  inflated: number;
}

type Observer = (reading: MeterReading) => void;
const observers = new Set<Observer>();

/** Calls `fn` with the reading of every request as it ends; returns the unsubscribe function. */
export function onMeterClosed(fn: Observer): () => void {
  observers.add(fn);
  return () => observers.delete(fn);
}

/** Bytes currently charged by all requests of this process. */
export const budgetInUse = () => inUse;

export class Meter implements MeterReading {
  held = 0;
  peakHeld = 0;
  read = 0;
  inflated = 0;
  private closed = false;

  /** `shared: false` measures without charging the process budget (pure parsing of a buffer in hand). */
  constructor(private readonly shared = true) {}

  /** Charges `n` bytes, or throws a 429 refusal when the process budget cannot take them. */
  hold(n: number): void {
    if (n <= 0) return;
    if (this.shared) {
      if (inUse + n > ingestLimits().decodeBudgetBytes) {
        throw refuse(429, "the collector is busy decoding other requests, retry later", { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) });
      }
      inUse += n;
    }
    this.held += n;
    if (this.held > this.peakHeld) this.peakHeld = this.held;
  }

  release(n: number): void {
    const amount = Math.min(Math.max(0, n), this.held);
    this.held -= amount;
    if (this.shared) inUse -= amount;
  }

  /** Gives everything back (idempotent) and reports the reading. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.release(this.held);
    const reading: MeterReading = { peakHeld: this.peakHeld, read: this.read, inflated: this.inflated };
    for (const fn of observers) fn(reading);
  }
}
