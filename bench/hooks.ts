/**
 * What error tracking hooks cost ingestion: end-to-end processing (`errortracking.ts`'s N events via
 * SQS → consumer → counted) for a project with two alerting hooks — one with a threshold — whose
 * receivers on loopback are a slow one (answers after 3 s) and a failing one (500, so retried), against
 * the same run's rate for a project without hooks. Rounds alternate (without, with, without, with);
 * each side's median is compared. Target: ≥ 0.9×, whatever the receivers do: the consumer only
 * enqueues, and the hook worker's waiting takes no consumer time.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { saveSetting } from "../functions/errortracking/domain/settings.js";
import { instanceConfig } from "../functions/platform/config.js";
import { endToEnd } from "./errortracking.js";
import type { BenchContext } from "./run.js";

const ROUNDS = 3;

async function receiver(answer: (reply: (status: number) => void) => void) {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests++;
      answer((status) => res.writeHead(status).end());
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, requests: () => requests, close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export async function run(ctx: BenchContext) {
  const headers = { "Private-Token": ctx.adminToken, "Content-Type": "application/json" };
  const call = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${ctx.baseUrl}/api/v4${path}`, { method, headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ id: number }>;
  };
  const project = async () => {
    const { id } = await call("POST", "/projects", { name: `hooks-bench-${randomBytes(3).toString("hex")}` });
    await saveSetting(id, { active: true, integrated: true }, { create: true, config: { ...instanceConfig(), offering: "hosted" } });
    return id;
  };
  await call("PUT", "/application/settings", { allow_local_requests_from_web_hooks_and_services: true });
  const slow = await receiver((reply) => setTimeout(() => reply(200), 3000));
  const failing = await receiver((reply) => reply(500));
  const without: number[] = [];
  const withHooks: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      without.push(await endToEnd(await project()));
      const hooked = await project();
      await call("POST", `/projects/${hooked}/hooks`, { url: slow.url, error_tracking_events: true, push_events: false });
      await call("POST", `/projects/${hooked}/hooks`, { url: failing.url, error_tracking_events: true, push_events: false, error_tracking_events_threshold: 10, error_tracking_events_window: 3600 });
      withHooks.push(await endToEnd(hooked));
    }
  } finally {
    await call("PUT", "/application/settings", { allow_local_requests_from_web_hooks_and_services: false });
    await Promise.all([slow.close(), failing.close()]);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  // Proof that the hooks fired while the rate was measured (or the row would compare nothing).
  if (slow.requests() === 0 || failing.requests() === 0) throw new Error(`hooks bench: the receivers got ${slow.requests()} and ${failing.requests()} requests`);
  return [
    {
      name: "end-to-end processing with two error tracking hooks (a receiver answering after 3 s, one answering 500)",
      baseline: "the same processing for a project without hooks, rounds alternated",
      value: median(withHooks),
      baselineValue: median(without),
      unit: "events/s",
      note: `target ≥ 0.9×; receivers got ${slow.requests()} + ${failing.requests()} requests during the run`,
    },
  ];
}
