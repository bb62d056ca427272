/**
 * The embedded local runtime: real-protocol stand-ins for DynamoDB, SQS and Step Functions, the route
 * table on one HTTP server, SQS pollers and cron timers — all running the same handler modules that
 * deploy to Lambda. Used by `npm start` (persistent data folder) and by the tests (temporary folder,
 * random ports).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { serve, type ServerType } from "@hono/node-server";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { startDynamo, ensureTable, type DynamoStandIn } from "./dynamodb.js";
import { startSqs, ensureQueues, restoreQueue, type SqsStandIn } from "./sqs.js";
import { startStepFunctions, type StepFunctionsStandIn, type TaskHandler } from "./stepfunctions.js";
import { pollQueue, scheduleCron, lambdaContext, type Poller } from "./workers.js";
import { describeListenError, freePort, listenProblem } from "./ports.js";
import { acquireInstanceLock, RUNTIME_ENV } from "./instance-lock.js";
import { invokedAs, OperatorError } from "./operator-errors.js";
import { recoverFromPredecessors, refuseInterruptedRestore } from "./recovery.js";
import { buildLocalApp, keepIdleConnectionsLongerThanClients, loadModule } from "./server.js";
import { workers } from "../functions/routes.js";
import type { QueueName } from "../functions/route-spec.js";
import { HOOK_DELIVERY_ATTEMPTS, INVOCATION_PAYLOAD_BYTES, QUEUE_BATCHING } from "../stacks/plan.js";
import { startIsolatedFunctions, type IsolatedFunctions, type IsolatedOptions } from "./isolated/index.js";
import { instanceConfig, resetInstanceConfig } from "../functions/platform/config.js";
import { describeError, log } from "../functions/platform/log.js";
import { replenishReserve } from "../functions/platform/space-reserve.js";

export const TABLE = "forgeline-main";
export const INGEST_QUEUE = "forgeline-ingest";
export const HOOK_QUEUE = "forgeline-hooks";
export const STORAGE_MOVE_ASL = resolve(import.meta.dirname, "../functions/moves/storage-move.asl.json");
/** How often the space reserve is grown back towards its size once the disk has room again. */
const RESERVE_CHECK_MS = 5_000;

export interface RuntimeOptions {
  dataDir: string;
  host?: string;
  port?: number;
  /** Keep DynamoDB data on disk (npm start) or in memory (tests). */
  persistent: boolean;
  bootstrapToken?: string;
  /** Instance config JSON (tests); otherwise FORGELINE_CONFIG / forgeline.config.json / defaults. */
  config?: unknown;
  /** Poll/cron workers (tests may turn them off to drive handlers directly). */
  workers?: boolean;
  /** Scheduled workers on their timers (default). Off = only the queue pollers; the caller runs crons. */
  crons?: boolean;
  /** Create the first administrator at start (default). Off = as on AWS: on its first request. */
  bootstrapAtStart?: boolean;
  /** Told when a stale lock on the data folder is taken over (default: standard error). */
  notice?: (line: string) => void;
  /** Run every function from its bundle in its own process (`local/isolated/`); default: all in this one. */
  isolated?: boolean | IsolatedOptions;
  /** Open a folder an interrupted restore left (the restore command, which finishes it); default: refuse it. */
  allowInterruptedRestore?: boolean;
}

export interface Runtime {
  baseUrl: string;
  bootstrap: { created: boolean; token?: string };
  stepFunctions: StepFunctionsStandIn;
  /** The function processes, in isolated mode. */
  isolated?: IsolatedFunctions;
  /** Waits until queues are empty and no state machine execution runs. */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

/** Local default storages: two single-node storages and a three-replica cluster, to move between. */
export function defaultLocalConfig(dataDir: string) {
  const s = join(dataDir, "storages");
  return {
    offering: "self-managed",
    tier: "premium",
    storages: {
      default: { kind: "local", path: join(s, "default") },
      secondary: { kind: "local", path: join(s, "secondary") },
      cluster: { kind: "cluster", replicas: [join(s, "cluster-1"), join(s, "cluster-2"), join(s, "cluster-3")] },
    },
  };
}

export async function startRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const dataDir = resolve(opts.dataDir);
  ensureWritableFolder(dataDir);
  const host = opts.host ?? "127.0.0.1";
  // Two DynamoDB Local processes on one database file would corrupt it: one instance per folder.
  const lock = opts.persistent ? acquireInstanceLock(dataDir, opts.notice ?? ((line) => console.error(line))) : undefined;
  const stops: Array<() => Promise<void>> = [];
  if (lock) stops.push(async () => lock.release());
  const stopAll = async () => {
    // Every step runs even if one fails, and a failure is said: an unsaved queue loses messages.
    for (const stop of stops.reverse()) await stop().catch((err) => log.error("runtime stop step failed", describeError(err)));
  };
  try {
    // Checked before the stand-ins start, so a taken port is said at once, not after a JVM start.
    const portProblem = opts.port ? await listenProblem(host, opts.port) : undefined;
    if (portProblem) throw new OperatorError(portProblem, `Stop that program, or choose another port: FORGELINE_PORT=<port> ${invokedAs()}`);
    const [dynamoPort, sqsPort, sfnPort] = [await freePort(), await freePort(), await freePort()];
    const dynamo: DynamoStandIn = await startDynamo({ port: dynamoPort, dataDir: opts.persistent ? join(dataDir, "dynamodb") : undefined });
    stops.push(() => dynamo.stop());
    const sqsStandIn: SqsStandIn = await startSqs({ port: sqsPort, journal: opts.persistent ? join(dataDir, "sqs", "journal.ndjson") : undefined });
    stops.push(() => sqsStandIn.stop());
    const sfn = await startStepFunctions({ port: sfnPort, stateFile: opts.persistent ? join(dataDir, "stepfunctions", "executions.json") : undefined });
    stops.push(() => sfn.stop());

    configureEnvironment(opts, dataDir, { dynamo: dynamo.endpoint, sqs: sqsStandIn.endpoint, sfn: sfn.endpoint });
    if (opts.persistent) {
      replenishReserve();
      const reserveTimer = setInterval(replenishReserve, RESERVE_CHECK_MS);
      reserveTimer.unref();
      stops.push(async () => clearInterval(reserveTimer));
    }
    createStorageFolders();
    const credentials = { accessKeyId: "local", secretAccessKey: "local" };
    await ensureTable(new DynamoDBClient({ endpoint: dynamo.endpoint, region: "us-east-1", credentials }), TABLE);
    await recoverFromPredecessors();
    if (!opts.allowInterruptedRestore) await refuseInterruptedRestore(dataDir);
    const sqs = new SQSClient({ endpoint: sqsStandIn.endpoint, region: "us-east-1", credentials });
    const queue = await ensureQueues(sqs, { queue: INGEST_QUEUE, deadLetter: `${INGEST_QUEUE}-dlq`, maxReceiveCount: 5, visibilityTimeoutSeconds: 60 });
    process.env.SST_RESOURCE_IngestQueue = JSON.stringify({ url: queue.url });
    process.env.SST_RESOURCE_IngestDeadLetterQueue = JSON.stringify({ url: queue.dlqUrl });
    await restoreQueue(sqs, queue.url, join(dataDir, "sqs", `${INGEST_QUEUE}.json`));
    const hookQueue = await ensureQueues(sqs, { queue: HOOK_QUEUE, deadLetter: `${HOOK_QUEUE}-dlq`, maxReceiveCount: HOOK_DELIVERY_ATTEMPTS, visibilityTimeoutSeconds: 60 });
    process.env.SST_RESOURCE_HookQueue = JSON.stringify({ url: hookQueue.url });
    // What the Sidekiq metrics read (stacks/monitoring.ts); the machine's ARN joins it once registered.
    process.env.SST_RESOURCE_BackgroundWork = JSON.stringify({ ingestQueue: queue.url, ingestDlq: queue.dlqUrl, hookQueue: hookQueue.url, hookDlq: hookQueue.dlqUrl });
    const queueUrls: Record<QueueName, string> = { IngestQueue: queue.url, HookQueue: hookQueue.url };

    const isolated = opts.isolated ? await startIsolatedFunctions(opts.isolated === true ? {} : opts.isolated) : undefined;
    if (isolated) stops.push(() => isolated.stop());
    const workerHandler = async (w: (typeof workers)[number]) =>
      isolated ? isolated.handler(w) : (await loadModule<{ handler: (event: unknown, ctx: unknown) => Promise<unknown> }>(w.module)).handler;

    await registerStateMachines(sfn, workerHandler);

    const { ensureBootstrapAdmin } = await import("../functions/identity/domain/bootstrap.js");
    const bootstrap = opts.bootstrapAtStart === false ? { created: false } : await ensureBootstrapAdmin(opts.bootstrapToken);

    const app = isolated ? isolated.app() : await buildLocalApp();
    const server: ServerType = await new Promise((ok, fail) => {
      const s = serve({ fetch: app.fetch, hostname: host, port: opts.port ?? 0 }, () => ok(s));
      s.once("error", (err: NodeJS.ErrnoException) =>
        fail(new OperatorError(describeListenError(err, host, opts.port ?? 0), `Choose another port: FORGELINE_PORT=<port> ${invokedAs()}`)),
      );
    });
    keepIdleConnectionsLongerThanClients(server);
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : opts.port;
    const baseUrl = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    process.env.FORGELINE_LOCAL_BASE_URL = baseUrl;

    const pollers: Poller[] = [];
    const crons: Array<{ stop: () => void }> = [];
    if (opts.workers !== false) {
      for (const w of workers) {
        const handler = await workerHandler(w);
        if (w.kind === "queue") {
          const queueUrl = queueUrls[w.queue ?? "IngestQueue"];
          const arn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] }))).Attributes?.QueueArn ?? "";
          // As the event source mapping does: batches of its size and window, at most its concurrency at once.
          const batching = QUEUE_BATCHING[w.queue ?? "IngestQueue"];
          for (let i = 0; i < (batching.maximumConcurrency ?? 1); i++) {
            pollers.push(pollQueue(sqs, { name: w.name, queueUrl, queueArn: arn, handler: handler as never, batching, payloadBytes: INVOCATION_PAYLOAD_BYTES }));
          }
        }
        if (w.kind === "cron" && w.schedule && opts.crons !== false) crons.push(scheduleCron({ name: w.name, schedule: w.schedule, handler: handler as never }));
      }
    }
    if (lock) {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => RUNTIME_ENV.test(k) && !/TOKEN/.test(k))) as Record<string, string>;
      lock.publish({ baseUrl, env });
    }
    // Shut down in order: stop taking requests, let consumers drain, stop stand-ins (what is still
    // queued is in the SQS stand-in's journal).
    stops.push(async () => {
      await new Promise<void>((ok) => server.close(() => ok()));
      crons.forEach((c) => c.stop());
      await Promise.race([Promise.all(pollers.map((p) => p.drained())), new Promise((r) => setTimeout(r, 10_000))]);
      await Promise.all(pollers.map((p) => p.stop()));
    });

    return {
      baseUrl,
      bootstrap,
      stepFunctions: sfn,
      isolated,
      async settle() {
        for (let i = 0; i < 3; i++) {
          await Promise.all(pollers.map((p) => p.drained()));
          await sfn.idle();
        }
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** Creates the data folder if needed and proves it writable, or says so as one line. */
function ensureWritableFolder(dir: string) {
  const probe = join(dir, `.write-test-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, "");
    rmSync(probe);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new OperatorError(
      `the data folder ${dir} cannot be written (${e.code ?? "error"}: ${e.syscall ?? "write"} ${e.path ?? dir})`,
      `Make it writable for this user, or use another folder: FORGELINE_DATA_DIR=<folder> ${invokedAs()}`,
    );
  }
}

/**
 * Every configured storage folder (each replica of a cluster) exists from the start, as a mounted
 * volume does on a server: a fresh instance's move plan can then tell each destination's free
 * space before the first repository is written there. A folder that cannot be created is left to
 * the first write on it, which answers with the reason.
 */
function createStorageFolders() {
  for (const storage of Object.values(instanceConfig().storages)) {
    for (const folder of storage.kind === "local" ? [storage.path] : storage.replicas) {
      try {
        mkdirSync(folder, { recursive: true });
      } catch (err) {
        log.warn("storage folder could not be created", { folder, ...describeError(err) });
      }
    }
  }
}

function configureEnvironment(opts: RuntimeOptions, dataDir: string, endpoints: { dynamo: string; sqs: string; sfn: string }) {
  const env = process.env;
  env.AWS_REGION = "us-east-1";
  env.AWS_ACCESS_KEY_ID = "local";
  env.AWS_SECRET_ACCESS_KEY = "local";
  env.AWS_ENDPOINT_URL_DYNAMODB = endpoints.dynamo;
  env.AWS_ENDPOINT_URL_SQS = endpoints.sqs;
  env.AWS_ENDPOINT_URL_SFN = endpoints.sfn;
  env.FORGELINE_DATA_DIR = dataDir;
  // The room kept back in the data folder for deletions (`space-reserve.ts`), with a table on disk.
  if (opts.persistent) env.FORGELINE_LOCAL_SPACE_RESERVE = join(dataDir, "space-reserve");
  else delete env.FORGELINE_LOCAL_SPACE_RESERVE;
  env.SST_RESOURCE_Main = JSON.stringify({ name: TABLE });
  if (opts.config) env.FORGELINE_CONFIG_JSON = JSON.stringify(opts.config);
  else if (!env.FORGELINE_CONFIG && !env.FORGELINE_CONFIG_JSON) {
    const file = resolve("forgeline.config.json");
    if (existsSync(file)) env.FORGELINE_CONFIG = file;
    else env.FORGELINE_CONFIG_JSON = JSON.stringify(defaultLocalConfig(dataDir));
  }
  resetInstanceConfig();
}

/** Registers the storage-move state machine when its ASL exists, wiring each `${task:x}` to worker x. */
async function registerStateMachines(sfn: StepFunctionsStandIn, handlerOf: (w: (typeof workers)[number]) => Promise<(event: unknown, ctx: unknown) => Promise<unknown>>) {
  if (!existsSync(STORAGE_MOVE_ASL)) return;
  const definition = JSON.parse(readFileSync(STORAGE_MOVE_ASL, "utf8")) as Record<string, unknown>;
  const tasks: Record<string, TaskHandler> = {};
  for (const w of workers.filter((x) => x.kind === "task")) {
    const handler = await handlerOf(w);
    tasks[w.name] = (input) => handler(input, lambdaContext(w.name));
  }
  const arn = sfn.register({ name: "StorageMoveMachine", definition, tasks, waitOverrides: waitOverridesFromEnv() });
  process.env.SST_RESOURCE_StorageMoveMachine = JSON.stringify({ arn });
  // The read-only link of the console's move and execution views (`EXECUTION_HISTORY_MODULES`).
  process.env.SST_RESOURCE_StorageMoveHistory = JSON.stringify({ arn });
  if (process.env.SST_RESOURCE_BackgroundWork) process.env.SST_RESOURCE_BackgroundWork = JSON.stringify({ ...JSON.parse(process.env.SST_RESOURCE_BackgroundWork), machine: arn });
}

function waitOverridesFromEnv(): Record<string, number> | undefined {
  const raw = process.env.FORGELINE_LOCAL_WAIT_OVERRIDES;
  return raw ? (JSON.parse(raw) as Record<string, number>) : undefined;
}
