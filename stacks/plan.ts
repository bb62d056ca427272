/**
 * Pure planning helpers for the infra modules: what to create, derived from the route table and the
 * stage's storage list. No SST or Pulumi globals here, so vitest can import this file directly
 * (`test/infra/`) and both tsconfigs type-check it.
 *
 * App code is NOT imported here (except the dependency-free route table): `platform/http/lambda.ts`
 * and `platform/db/table.ts` pull in Hono, the AWS SDK and `sst`'s runtime `Resource`, which would end
 * up bundled into the deploy-time program and tie the infra type-check to every app file. The two
 * small things we need from them are copied below, and `test/infra/plan.test.ts` asserts the copies
 * equal the originals.
 */
import type { RouteSpec, WorkerSpec } from "../functions/routes";
import type { QueueName } from "../functions/route-spec";

/** Copy of `toApiGatewayPath` in `functions/platform/http/lambda.ts` (parity tested). */
export function toApiGatewayPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*$/, "{proxy+}");
}

/** Copy of `tableDefinition` in `functions/platform/db/table.ts`, in SST's `Dynamo` shape (parity tested). */
export const mainTable = {
  fields: { pk: "string", sk: "string", gsi1pk: "string", gsi1sk: "string", gsi2pk: "string", gsi2sk: "string" },
  primaryIndex: { hashKey: "pk", rangeKey: "sk" },
  globalIndexes: {
    gsi1: { hashKey: "gsi1pk", rangeKey: "gsi1sk" },
    gsi2: { hashKey: "gsi2pk", rangeKey: "gsi2sk" },
  },
  ttl: "expireAt",
} as const;

/** Where Lambdas that touch repositories mount the EFS storages root. */
export const STORAGE_MOUNT = "/mnt/storages";
/** The EFS directory that holds every storage (the root of the access point Lambdas mount). */
export const EFS_STORAGES_ROOT = "/storages";

/** `functions/<module>.handler`: SST resolves it relative to the app root. */
export const handlerOf = (module: string) => `functions/${module}.handler`;
/** Inverse of `handlerOf`; undefined for handlers that do not follow the convention. */
export const moduleOfHandler = (handler: string) => /^functions\/(.+)\.handler$/.exec(handler)?.[1];

// ── Least privilege ──────────────────────────────────────────────────────────────────────────────
/**
 * What a module may touch beyond the table (which every function gets), decided by its context,
 * i.e. the first path segment of `module`:
 * - `moves/`         → the storage-move state machine (starts and inspects executions), and storage;
 *   the operator console's JSON (`moves/http/console/`) only storage; so does the project update, which schedules a move when an administrator changes its storage;
 * - `errortracking/` → the ingest queue (enqueues events), except the hook worker, which gets only
 *   the hook queue (see `HOOK_QUEUE_MODULES`);
 * - `hosting/`, `inventory/` → the repository storages (EFS mount + VPC; inventory measures repositories).
 * Anything else gets the table only. New contexts that need more extend this one rule.
 */
export function needsOf(module: string) {
  const context = module.split("/")[0] ?? "";
  return {
    // A project update may schedule a storage move (`repository_storage`, as in GitLab).
    // The operator console's JSON only reads (the table, storages; execution histories below).
    stateMachine: (context === "moves" && !module.startsWith("moves/http/console/")) || module === "hosting/http/update-project",
    // The hook worker only consumes its own queue (`HOOK_QUEUE_MODULES`).
    queue: context === "errortracking" && module !== "errortracking/workers/hook-delivery",
    storage: context === "hosting" || context === "moves" || context === "inventory",
  };
}

/**
 * npm packages a module reads from disk at run time rather than importing (so the bundler cannot
 * include them): they ship in the function's `node_modules`. Swagger UI's page serves the files of
 * `swagger-ui-dist` as they are.
 */
export function nodeModulesOf(module: string): string[] {
  return module === "academic/http/swagger-ui" ? ["swagger-ui-dist"] : [];
}

// ── Bundling ─────────────────────────────────────────────────────────────────────────────────────
/**
 * The Lambda runtime of every function (the closest maintained one to the Node the code is
 * developed on); SST derives the bundle's esbuild target from it.
 */
export const LAMBDA_RUNTIME = "nodejs22.x";

/** The part of SST's `nodejs` function options this app sets. */
export interface NodejsBundling {
  minify: boolean;
  install?: string[];
}

/**
 * The `nodejs` options `stacks/` gives SST for a module's function: the one definition of how a
 * function is bundled. `local/isolated/sst-esbuild.ts` turns it into the esbuild options SST's Node
 * builder derives from it, for `npm run build`, isolated mode and the tests. `minify` is spelled
 * out because SST's builder minifies only when the property is set, whatever its default reads.
 */
export function nodejsOf(module: string | undefined): NodejsBundling {
  const install = module === undefined ? [] : nodeModulesOf(module);
  return install.length > 0 ? { minify: true, install } : { minify: true };
}

/** How a function is triggered: an API Gateway route, or a `workers` entry's kind. */
export type FunctionKind = "route" | WorkerSpec["kind"];

/** The `sst.Linkable`s a function can be linked to (`SST_RESOURCE_<name>` in its environment). */
export type LinkName = "Main" | "IngestQueue" | "HookQueue" | "StorageMoveMachine" | "StorageMoveHistory" | "BootstrapAdminToken" | "BackgroundWork";

/**
 * The functions that read the storage-move executions' event histories (`states:GetExecutionHistory`,
 * the `StorageMoveHistory` link, which also carries the machine's ARN): the operator console's
 * execution view, and its move view, which names the execution; nothing else of the moves context,
 * which otherwise only starts, describes, lists and stops executions.
 */
export const EXECUTION_HISTORY_MODULES: readonly string[] = ["moves/http/console/execution", "moves/http/console/move"];

/**
 * The error tracking hook queue: the ingest consumer enqueues deliveries, the hook worker consumes
 * them and pushes back a failed one's visibility (its backoff). No other function touches it.
 */
export const HOOK_QUEUE_MODULES: readonly string[] = ["errortracking/workers/consumer", "errortracking/workers/hook-delivery"];

/**
 * The links `stacks/` gives a function (`linksFor` in ./functions): the table always; the queue and
 * the state machine where `needsOf` says so, except that a task gets no link back to the machine
 * that invokes it (a cycle); reading execution histories only where `EXECUTION_HISTORY_MODULES`
 * says; the read-only view of the background work for `monitoring/`; the bootstrap admin token for
 * routes, since each route authenticates.
 * The local isolated mode (`local/isolated/`) gives each function exactly these.
 */
export function linksOf(module: string, kind: FunctionKind): LinkName[] {
  const needs = needsOf(module);
  const links: LinkName[] = ["Main"];
  if (needs.queue) links.push("IngestQueue");
  if (HOOK_QUEUE_MODULES.includes(module)) links.push("HookQueue");
  if (needs.stateMachine && kind !== "task") links.push("StorageMoveMachine");
  if (kind !== "task" && EXECUTION_HISTORY_MODULES.includes(module)) links.push("StorageMoveHistory");
  // The Sidekiq metrics read the queues' attributes and the machine's running executions, nothing else (./monitoring).
  if (module.startsWith("monitoring/")) links.push("BackgroundWork");
  if (kind === "route") links.push("BootstrapAdminToken");
  return links;
}

/**
 * Variables `stacks/api.ts` sets on a function besides `FORGELINE_CONFIG_JSON` (every function,
 * `withDefaults`): error-tracking routes build DSNs, which must point at the ingest function URL;
 * error-tracking and web routes encrypt third-party tracker tokens with the secret key; hosting and
 * identity routes answer projects and snippets, whose `http_url_to_repo` is on the Git function's URL.
 */
export type PlannedVariable = "FORGELINE_INGEST_URL" | "FORGELINE_SECRET_KEY" | "FORGELINE_GIT_URL";

export function environmentOf(module: string, kind: FunctionKind): PlannedVariable[] {
  // The hook worker decrypts each hook's secret token to send it as `X-Gitlab-Token`.
  if (module === "errortracking/workers/hook-delivery") return ["FORGELINE_SECRET_KEY"];
  if (kind !== "route") return [];
  const vars: PlannedVariable[] = [];
  if (module.startsWith("errortracking/")) vars.push("FORGELINE_INGEST_URL");
  if (/^(errortracking|web)\//.test(module)) vars.push("FORGELINE_SECRET_KEY");
  if (/^(hosting|identity)\//.test(module)) vars.push("FORGELINE_GIT_URL");
  return vars;
}

// ── API routes ───────────────────────────────────────────────────────────────────────────────────
export interface ApiRoute {
  /** API Gateway route key, e.g. `GET /api/v4/users/{user_id}`. */
  key: string;
  module: string;
  handler: string;
}

/** One API Gateway route per route-table entry. Duplicate keys would fail the deploy, so fail here. */
export function apiRoutes(routes: readonly RouteSpec[]): ApiRoute[] {
  const seen = new Set<string>();
  return routes.map(({ method, path, module }) => {
    const key = `${method} ${toApiGatewayPath(path)}`;
    if (seen.has(key)) throw new Error(`Route ${key} appears twice in functions/routes.ts`);
    seen.add(key);
    return { key, module, handler: handlerOf(module) };
  });
}

export const apiRouteKeys = (routes: readonly RouteSpec[]) => apiRoutes(routes).map((r) => r.key);

// ── Workers ──────────────────────────────────────────────────────────────────────────────────────
export const workersOfKind = (workers: readonly WorkerSpec[], kind: WorkerSpec["kind"]) =>
  workers.filter((w) => w.kind === kind);

/** `ingest-consumer` → `IngestConsumer`, for Pulumi resource names. */
export const pascal = (name: string) =>
  name.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

/**
 * The one worker of a kind that has a single slot: `queue` per queue (an SST Queue takes one
 * subscriber, and two consumers would split its messages).
 */
export function singleWorker(workers: readonly WorkerSpec[], kind: "queue", queue: QueueName = "IngestQueue"): WorkerSpec | undefined {
  const found = workersOfKind(workers, kind).filter((w) => (w.queue ?? "IngestQueue") === queue);
  if (found.length > 1) {
    throw new Error(`At most one "${kind}" worker is supported; functions/routes.ts lists ${found.map((w) => w.name).join(", ")}`);
  }
  return found[0];
}

/** How long every log group keeps its events (CloudWatch Logs' retention in days; SST's "1 month"). */
export const LOG_RETENTION_DAYS = 30;
export const LOG_RETENTION = "1 month" as const;

/** Receives of a hook delivery before its message goes to the dead-letter queue (local runtime too). */
export const HOOK_DELIVERY_ATTEMPTS = 8;

export { QUEUE_BATCHING, type QueueBatching } from "../functions/route-spec";
/** Lambda's limit on an invocation's payload, which also bounds an SQS batch (AWS trims it to fit). */
export const INVOCATION_PAYLOAD_BYTES = 6 * 1024 * 1024;

/** Lambda timeout of the queue consumer, and the visibility timeout (6×, as AWS recommends). */
export const QUEUE_CONSUMER_TIMEOUT_SECONDS = 60;

/**
 * Lambda timeout per kind of function (isolated mode enforces the same): HTTP API gives up after
 * 30 s, so routes (and the ingest URL) stop at 29; scheduled work gets 5 minutes; a task copies a
 * batch of repositories in one invocation, so it gets Lambda's maximum.
 */
export const TIMEOUT_SECONDS: Record<FunctionKind, number> = { route: 29, url: 29, queue: QUEUE_CONSUMER_TIMEOUT_SECONDS, cron: 300, task: 900 };
/** A streaming function URL (Git over HTTP) is not behind API Gateway: a clone or push may take Lambda's maximum. */
export const STREAMING_URL_TIMEOUT_SECONDS = 900;
export const timeoutOf = (worker: Pick<WorkerSpec, "kind" | "streaming">) => (worker.kind === "url" && worker.streaming ? STREAMING_URL_TIMEOUT_SECONDS : TIMEOUT_SECONDS[worker.kind]);

/**
 * Lambda layers a module needs. Git over HTTP runs the `git` binary, which Lambda's runtime does not
 * have: a layer providing it in `/opt/bin` (on Lambda's PATH), given by its ARN at deploy time.
 */
export function layersOf(module: string, env: Record<string, string | undefined> = process.env): string[] {
  return module.startsWith("hosting/git-http/") && env.FORGELINE_GIT_LAYER_ARN ? [env.FORGELINE_GIT_LAYER_ARN] : [];
}
export const queueVisibilitySeconds = (consumerTimeoutSeconds: number) => 6 * consumerTimeoutSeconds;

export type Schedule = `rate(${string})` | `cron(${string})` | `at(${string})`;

export function cronSchedule(worker: WorkerSpec): Schedule {
  const s = worker.schedule?.trim() ?? "";
  if (!/^(rate|cron|at)\(.+\)$/.test(s)) {
    throw new Error(`Cron worker ${worker.name} needs a schedule like "rate(1 hour)" (got "${s}")`);
  }
  return s as Schedule;
}

// ── Storage-move state machine ───────────────────────────────────────────────────────────────────
const TASK_PLACEHOLDER = /^\$\{task:([A-Za-z0-9_.-]+)\}$/;

/** Worker names referenced by `"${task:<name>}"` placeholders anywhere in an ASL document. */
export function taskPlaceholders(asl: unknown): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      const m = TASK_PLACEHOLDER.exec(v);
      if (m?.[1]) names.add(m[1]);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(asl);
  return [...names].sort();
}

/** Replaces every `"${task:<name>}"` with the Lambda ARN of that task worker. */
export function substituteTasks(asl: unknown, arns: Record<string, string>): unknown {
  if (typeof asl === "string") {
    const name = TASK_PLACEHOLDER.exec(asl)?.[1];
    if (name === undefined) return asl;
    const arn = arns[name];
    if (!arn) throw new Error(`ASL references \${task:${name}} but no "task" worker is named ${name}`);
    return arn;
  }
  if (Array.isArray(asl)) return asl.map((v) => substituteTasks(v, arns));
  if (asl && typeof asl === "object") {
    return Object.fromEntries(Object.entries(asl).map(([k, v]) => [k, substituteTasks(v, arns)]));
  }
  return asl;
}

// ── Repository storages ──────────────────────────────────────────────────────────────────────────
/** Stage config: storage name → local, or a cluster with N replicas (named `replica-1`…`replica-N`). */
export type StageStorages = Record<string, { kind: "local" } | { kind: "cluster"; replicas: number }>;

export const defaultStageStorages: StageStorages = {
  default: { kind: "local" },
  cluster: { kind: "cluster", replicas: 3 },
};

const STORAGE_NAME = /^[a-zA-Z0-9_.-]{1,64}$/; // same rule as functions/platform/config.ts

export function parseStageStorages(raw: unknown, source: string): StageStorages {
  if (!raw || typeof raw !== "object" || Array.isArray(raw) || Object.keys(raw).length === 0) {
    throw new Error(`${source}: expected a non-empty object of storages`);
  }
  for (const [name, s] of Object.entries(raw as Record<string, unknown>)) {
    const spec = s as { kind?: unknown; replicas?: unknown };
    const ok =
      STORAGE_NAME.test(name) &&
      (spec?.kind === "local" ||
        (spec?.kind === "cluster" && Number.isInteger(spec.replicas) && (spec.replicas as number) >= 1));
    if (!ok) throw new Error(`${source}: storage "${name}" must be {kind:"local"} or {kind:"cluster", replicas:N>=1}`);
  }
  return raw as StageStorages;
}

export interface StorageLayout {
  /** One EFS access point per storage (per replica for clusters); `path` is absolute on the file system. */
  accessPoints: { name: string; path: string }[];
  /** The `storages` of `FORGELINE_CONFIG_JSON` (`functions/platform/config.ts`), as mounted in Lambda. */
  storages: Record<string, { kind: "local"; path: string } | { kind: "cluster"; replicas: string[] }>;
}

export function storageLayout(stage: StageStorages): StorageLayout {
  const accessPoints: StorageLayout["accessPoints"] = [];
  const storages: StorageLayout["storages"] = {};
  for (const [name, s] of Object.entries(stage)) {
    if (s.kind === "local") {
      accessPoints.push({ name: pascal(name), path: `${EFS_STORAGES_ROOT}/${name}` });
      storages[name] = { kind: "local", path: `${STORAGE_MOUNT}/${name}` };
    } else {
      const replicas = Array.from({ length: s.replicas }, (_, i) => `replica-${i + 1}`);
      for (const r of replicas) accessPoints.push({ name: pascal(`${name}-${r}`), path: `${EFS_STORAGES_ROOT}/${name}/${r}` });
      storages[name] = { kind: "cluster", replicas: replicas.map((r) => `${STORAGE_MOUNT}/${name}/${r}`) };
    }
  }
  return { accessPoints, storages };
}
