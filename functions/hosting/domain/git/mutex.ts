/**
 * In-process serialisation of writes to one repository. Two requests served by the same Lambda
 * instance (or the local dev server) must not interleave "read branch head → write commit → move
 * ref"; cross-process exclusion is the caller's DynamoDB lease, and `refs.ts` adds a compare-and-swap
 * on the ref itself as the last line of defence.
 */
const tails = new Map<string, Promise<unknown>>();

export async function withRepositoryMutex<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  // Run after the previous holder settles, whether it succeeded or failed.
  const run = previous.then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    // Forget the chain once nobody queued behind us, so the map does not grow with every repository.
    if (tails.get(key) === tail) tails.delete(key);
  }
}
