/**
 * The local HTTP server: the route table mounted on one Hono app (the same endpoints each Lambda
 * serves on AWS), plus the function-URL workers (ingestion) on the same port.
 */
import { Hono } from "hono";
import type { Server } from "node:http";
import type { ServerType } from "@hono/node-server";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createApp } from "../functions/platform/http/app.js";
import { mountEndpoint } from "../functions/platform/http/lambda.js";
import type { Endpoint } from "../functions/platform/http/endpoint.js";
import { writeOpenApiModule } from "../functions/platform/http/openapi-document.js";
import { routes, workers } from "../functions/routes.js";

const functionsDir = resolve(import.meta.dirname, "../functions");

/** Loads `functions/<module>.ts` (a variable path, so bundler-style import analysis is skipped). */
export async function loadModule<T>(module: string): Promise<T> {
  const url = pathToFileURL(resolve(functionsDir, `${module}.ts`)).href;
  return (await import(/* @vite-ignore */ url)) as T;
}

export async function buildLocalApp(): Promise<Hono> {
  const app = createApp(new Hono());
  if (process.env.FORGELINE_BENCH_ROUTES === "1") {
    // The benchmarks' baselines: the same server and middleware, no work. Not product routes. The
    // POST reads its body from the Node stream, as the collector does, so only ingest's work differs.
    app.get("/__bench/bare", (c) => c.json({ ok: true }));
    app.post("/__bench/bare", async (c) => {
      let bytes = 0;
      for await (const chunk of (c.env as { incoming: AsyncIterable<Buffer> }).incoming) bytes += chunk.length;
      return c.json({ ok: bytes > 0 });
    });
    // The floor under ingest: the same body read, then queued through the collector's own SQS
    // sender (group commit, `SendMessageBatch`), answered once SQS accepted it. No parsing, no auth.
    const { enqueue } = await import("../functions/errortracking/ingest/enqueue.js");
    app.post("/__bench/bare-sqs", async (c) => {
      const chunks: Buffer[] = [];
      for await (const chunk of (c.env as { incoming: AsyncIterable<Buffer> }).incoming) chunks.push(chunk);
      await enqueue([Buffer.concat(chunks).toString("utf8")]);
      return c.json({ ok: true });
    });
  }
  for (const route of routes) {
    const mod = await loadModule<{ endpoint?: Endpoint }>(route.module);
    if (!mod.endpoint) throw new Error(`functions/${route.module}.ts does not export an endpoint`);
    mountEndpoint(app, route.method, route.path, mod.endpoint);
  }
  // The OpenAPI route serves the generated document, as its bundle does: brought up to date from
  // the modules just loaded, so a schema edited since the last build shows here too.
  await writeOpenApiModule((module) => loadModule(module));
  for (const worker of workers.filter((w) => w.kind === "url")) {
    // A function-URL module registers its own paths (it is one Lambda serving several of them).
    const mod = await loadModule<{ mount?: (app: Hono) => void }>(worker.module);
    if (!mod.mount) throw new Error(`functions/${worker.module}.ts does not export mount(app)`);
    mod.mount(app);
  }
  return app;
}

/** How long the server keeps an idle keep-alive connection (announced as `Keep-Alive: timeout=75`). */
export const IDLE_CONNECTION_SECONDS = 75;

/**
 * Node closes an idle keep-alive connection after 5 s, while undici (Node's fetch) reuses one for
 * up to the announced timeout less 1 s, by its own timers. On a busy machine those timers run late,
 * and a request sent on a connection the server is closing at that moment fails with a reset
 * ("fetch failed", "other side closed"); the test suite met it dozens of routes at a time. Clients
 * reuse a connection within seconds or not at all, so a 75 s idle window leaves that race to
 * connections idle for over a minute. The headers timeout stays above it, as Node requires.
 */
export function keepIdleConnectionsLongerThanClients(server: ServerType): void {
  const http = server as Server;
  http.keepAliveTimeout = IDLE_CONNECTION_SECONDS * 1000;
  http.headersTimeout = (IDLE_CONNECTION_SECONDS + 1) * 1000;
}
