/**
 * A small closed-loop HTTP load generator: `concurrency` workers send `total` requests in all and
 * record each latency. Bounded in count, loopback only. The requests are sent from a child process
 * (`load-client.ts`), so only the server's work is measured on the server's event loop.
 */
import { fork, type ChildProcess } from "node:child_process";

export interface LoadResult {
  total: number;
  failures: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

/** What the client sends: request `i` goes to `urls[i % n]` with `bodies[i % m]`. */
export interface LoadPlan {
  total: number;
  concurrency: number;
  urls: string[];
  method?: string;
  headers?: Record<string, string>;
  bodies?: string[];
  /** The status that counts as success (200). */
  expect?: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

let client: ChildProcess | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** One client process for the whole run: a warm JIT and warm connections, like a long-running `wrk`. */
function loadClient(): ChildProcess {
  if (client && client.exitCode === null) return client;
  client = fork(new URL("./load-client.ts", import.meta.url), { stdio: "inherit" });
  client.unref();
  client.channel?.unref();
  return client;
}

function runPlan(plan: LoadPlan): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = loadClient();
    const exited = (code: number | null) => reject(new Error(`the load client exited with ${code}`));
    child.once("exit", exited);
    child.once("message", (out) => {
      child.off("exit", exited);
      const { latencies, failures, seconds } = out as { latencies: number[]; failures: number; seconds: number };
      latencies.sort((a, b) => a - b);
      resolve({ total: plan.total, failures, seconds, rps: plan.total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) });
    });
    child.send(plan);
  });
}

/** Runs one plan at a time on the shared client. */
export function load(plan: LoadPlan): Promise<LoadResult> {
  const result = queue.then(() => runPlan(plan));
  queue = result.catch(() => undefined);
  return result;
}

/** The load client's process id, if it runs (it is this process's child but not part of the runtime). */
export const loadClientPid = (): number | undefined => client?.pid;

export function stopLoadClient(): void {
  client?.kill();
  client = undefined;
}
