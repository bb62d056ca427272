/**
 * A small closed-loop HTTP load generator: `concurrency` workers send `total` requests in all and
 * record each latency. Bounded in count, loopback only.
 */
export interface LoadResult {
  total: number;
  failures: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export async function load(opts: { total: number; concurrency: number; request: (i: number) => Promise<Response>; expect?: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= opts.total) return;
      const t0 = performance.now();
      const res = await opts.request(i);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.status !== (opts.expect ?? 200)) failures++;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { total: opts.total, failures, seconds, rps: opts.total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
