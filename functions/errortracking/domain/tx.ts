/**
 * Transactions with a reason: the consumer's writes are conditional transactions whose cancellation
 * reasons (one code per item, in order) say what to do next — a duplicate event, a lost race on an
 * error's times, a user already counted, or a plain conflict with a concurrent transaction.
 */
import { transact, type TransactItem } from "../../platform/db/table.js";

export type Outcome<T> = { done: T } | { retry: true };

/** Per-item codes of a cancelled transaction (`ConditionalCheckFailed`, `TransactionConflict`, `None`…). */
export function cancellationCodes(err: unknown): string[] | undefined {
  const e = err as { name?: string; CancellationReasons?: Array<{ Code?: string }> };
  if (e?.name !== "TransactionCanceledException") return undefined;
  return (e.CancellationReasons ?? []).map((r) => r.Code ?? "None");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `attempt` until it settles. `attempt` builds the items from its current knowledge; when the
 * transaction is cancelled, `onCancel` reads the codes, updates that knowledge and decides. Conflicts
 * back off with jitter. After `maxAttempts` the error escapes, so the message is retried by SQS —
 * safe, since every path is idempotent.
 */
export async function transactUntilSettled<T>(opts: {
  build: () => Promise<TransactItem[]> | TransactItem[];
  onSuccess: () => T;
  onCancel: (codes: string[]) => Promise<Outcome<T>> | Outcome<T>;
  maxAttempts?: number;
}): Promise<T> {
  const max = opts.maxAttempts ?? 12;
  for (let attempt = 1; ; attempt++) {
    try {
      await transact(await opts.build());
      return opts.onSuccess();
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes || attempt >= max) throw err;
      if (codes.includes("TransactionConflict") && !codes.includes("ConditionalCheckFailed")) {
        await sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));
        continue;
      }
      const outcome = await opts.onCancel(codes);
      if ("done" in outcome) return outcome.done;
    }
  }
}
