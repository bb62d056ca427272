/**
 * The load generator's own process (forked once by `load()` and kept warm): it receives request
 * plans one at a time, sends each closed-loop and reports each latency. Separate from the server so
 * the client's work is not charged to the handlers under test, and written on `node:http` with
 * keep-alive connections (not `fetch`, whose web streams cost several times more CPU per request),
 * as `wrk` or `autocannon` would be.
 */
import { Agent, request } from "node:http";
import type { LoadPlan } from "./load.js";

function send(agent: Agent, url: URL, plan: LoadPlan, body: Buffer | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...plan.headers };
    if (body) headers["content-length"] = body.length;
    const req = request(url, { agent, method: plan.method ?? "GET", headers }, (res) => {
      res.on("data", () => undefined);
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

process.on("message", async (plan: LoadPlan) => {
  const agent = new Agent({ keepAlive: true, maxSockets: plan.concurrency });
  const urls = plan.urls.map((u) => new URL(u));
  const bodies = plan.bodies?.map((b) => Buffer.from(b));
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= plan.total) return;
      const t0 = performance.now();
      const status = await send(agent, urls[i % urls.length]!, plan, bodies?.[i % bodies.length]).catch(() => 0);
      latencies.push(performance.now() - t0);
      if (status !== (plan.expect ?? 200)) failures++;
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  process.send!({ latencies, failures, seconds });
});
