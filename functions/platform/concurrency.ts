/** Bounded concurrency for independent async work (copies, reads, conditional writes). */

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Like `mapConcurrently`, but every call runs to its end whatever the others do, and each outcome
 * is returned (in input order) instead of rejecting at the first failure: for work whose failures
 * are handled per item, and that must not keep running after its caller has given up.
 */
export function mapSettled<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<Array<Settled<R>>> {
  return mapConcurrently(items, limit, (item, i) =>
    fn(item, i).then(
      (value): Settled<R> => ({ ok: true, value }),
      (error: unknown): Settled<R> => ({ ok: false, error }),
    ),
  );
}

/** `fn` over `items` with at most `limit` calls pending at once; results in input order. */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
