/**
 * Isolated mode of the local runtime (`npm start -- --isolated`, or FORGELINE_ISOLATED=1): every
 * function runs from its Lambda bundle (`npm run build`'s output) in a process of its own
 * (`pool.ts`), with only the environment `stacks/` gives it (`environment.ts`), invoked with the
 * event shapes AWS sends: API Gateway HTTP API 2.0 for routes, the function URL's (the same format,
 * `$default`) for ingest, and for the workers what `local/runtime.ts` already builds (the SQS batch
 * answered with `batchItemFailures`, the scheduled event, the state's input for a task).
 *
 * Settings: FORGELINE_ISOLATED_IDLE_MS (60000: an idle process is recycled after it),
 * FORGELINE_ISOLATED_MAX_PROCESSES (24, whole machine), FORGELINE_ISOLATED_MAX_PER_FUNCTION (5),
 * FORGELINE_ISOLATED_BUILD_DIR (bundles built beforehand; default: build into `.build/` at start).
 */
import { join, resolve } from "node:path";
import { Hono, type Context } from "hono";
import { routes, workers, type WorkerSpec } from "../../functions/routes.js";
import { toApiGatewayPath } from "../../functions/platform/http/lambda.js";
import { instanceConfig } from "../../functions/platform/config.js";
import { describeError, log } from "../../functions/platform/log.js";
import { secretKey } from "../../functions/errortracking/thirdparty/secret.js";
import { TIMEOUT_SECONDS } from "../../stacks/plan.js";
import { BUILD_DIR, buildFunctions, functionSpecs, type FunctionSpec } from "./bundle.js";
import { startDeniedEndpoint, type DeniedEndpoint } from "./deny.js";
import { functionEnvironment } from "./environment.js";
import { exceedsLambdaPayload, httpApiEvent, httpApiResponse, internalServerError, requestTooLarge } from "./events.js";
import { FunctionPool, type FunctionDefinition } from "./pool.js";

export interface IsolatedOptions {
  /** Where the bundles are (default `.build/`). */
  buildDir?: string;
  /** Bundles already built there (the tests build once); otherwise `npm run build`'s step runs first. */
  prebuilt?: boolean;
}

export interface IsolatedFunctions {
  /** The HTTP side: each route and the function URL's paths, each invoking its own function. */
  app(): Hono;
  /** A worker's Lambda entry, run in its own process. */
  handler(worker: WorkerSpec): (event: unknown) => Promise<unknown>;
  /** The definition a module runs with (bundle, environment, timeout). */
  definition(module: string): FunctionDefinition;
  pool: FunctionPool;
  denied: DeniedEndpoint;
  stop(): Promise<void>;
}

const numberFromEnv = (name: string, fallback: number) => Number(process.env[name] ?? "") || fallback;

/**
 * `npm start`'s choice: isolated with `--isolated` or FORGELINE_ISOLATED=1. The bundles are built
 * into `.build/` first, unless FORGELINE_ISOLATED_BUILD_DIR names a folder already holding them.
 */
export function isolatedFromCommandLine(argv: readonly string[] = process.argv): IsolatedOptions | false {
  if (!argv.includes("--isolated") && process.env.FORGELINE_ISOLATED !== "1") return false;
  const prebuilt = process.env.FORGELINE_ISOLATED_BUILD_DIR;
  return prebuilt ? { buildDir: resolve(prebuilt), prebuilt: true } : {};
}

export async function startIsolatedFunctions(opts: IsolatedOptions = {}): Promise<IsolatedFunctions> {
  const buildDir = opts.buildDir ?? BUILD_DIR;
  if (!opts.prebuilt) {
    log.info("isolated mode: bundling every function (npm run build)");
    await buildFunctions({ outDir: buildDir });
  }
  const denied = await startDeniedEndpoint();
  const pool = new FunctionPool({
    idleMs: numberFromEnv("FORGELINE_ISOLATED_IDLE_MS", 60_000),
    maxProcesses: numberFromEnv("FORGELINE_ISOLATED_MAX_PROCESSES", 24),
    maxPerFunction: numberFromEnv("FORGELINE_ISOLATED_MAX_PER_FUNCTION", 5),
  });
  const specs = new Map(functionSpecs().map((s) => [s.module, s]));
  const definitions = new Map<string, FunctionDefinition>();

  const definition = (module: string): FunctionDefinition => {
    const spec: FunctionSpec | undefined = specs.get(module);
    if (!spec) throw new Error(`functions/${module}.ts is not a function of the route table`);
    let def = definitions.get(module);
    if (!def) {
      def = {
        name: spec.name,
        bundle: join(buildDir, spec.name, "index.mjs"),
        timeoutMs: TIMEOUT_SECONDS[spec.kind] * 1000,
        // Evaluated at each cold start: the server's URL and the state machine exist by then.
        env: () =>
          functionEnvironment(spec.module, spec.kind, {
            parent: process.env,
            instanceConfigJson: JSON.stringify(instanceConfig()),
            variables: { FORGELINE_INGEST_URL: process.env.FORGELINE_LOCAL_BASE_URL, FORGELINE_GIT_URL: process.env.FORGELINE_LOCAL_BASE_URL, FORGELINE_SECRET_KEY: secretKey().toString("base64") },
            deniedEndpoint: denied.url,
          }),
      };
      definitions.set(module, def);
    }
    return def;
  };

  /** API Gateway's side of one HTTP invocation. */
  const invokeHttp = (module: string, routeKey: string, proxyPrefix?: string) => async (c: Context) => {
    const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
    const params = c.req.param() as Record<string, string>;
    if (proxyPrefix !== undefined) params.proxy = c.req.path.slice(proxyPrefix.length);
    const event = await httpApiEvent(c.req.raw, { routeKey, pathParameters: params, sourceIp: incoming?.socket?.remoteAddress });
    if (exceedsLambdaPayload(event)) return requestTooLarge();
    try {
      return httpApiResponse(await pool.invoke(definition(module), event), event.requestContext.requestId);
    } catch (err) {
      log.error("function invocation failed", { function: module, routeKey, ...describeError(err) });
      return internalServerError();
    }
  };

  return {
    app() {
      const app = new Hono();
      for (const route of routes) {
        const routeKey = `${route.method} ${toApiGatewayPath(route.path)}`;
        const proxyPrefix = route.path.endsWith("*") ? route.path.slice(0, -1) : undefined;
        const serve = invokeHttp(route.module, routeKey, proxyPrefix);
        app.on(route.method, route.path, serve);
        // API Gateway sends `/x/` to the `/x` route.
        if (route.path !== "/" && !route.path.endsWith("*")) app.on(route.method, `${route.path}/`, serve);
      }
      for (const worker of workers.filter((w) => w.kind === "url")) {
        for (const path of worker.paths ?? []) app.all(path, invokeHttp(worker.module, "$default"));
      }
      app.notFound(() => new Response(JSON.stringify({ message: "Not Found" }), { status: 404, headers: { "content-type": "application/json" } }));
      return app;
    },
    handler(worker) {
      return (event) => pool.invoke(definition(worker.module), event);
    },
    definition,
    pool,
    denied,
    async stop() {
      await pool.stop();
      await denied.stop();
    },
  };
}
