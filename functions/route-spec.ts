/**
 * The shape of the route table's entries (`functions/routes.ts`). Dependency-free on purpose:
 * `stacks/` loads the route table at deploy time.
 */
export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteSpec {
  method: Method;
  /** Hono syntax (`:id`); `stacks/` converts it to API Gateway's `{id}`. */
  path: string;
  /** Relative to `functions/`; the module exports `endpoint` and the Lambda `handler`. */
  module: string;
}

/**
 * Functions that are not HTTP routes behind API Gateway. `kind` says how they are triggered:
 * `url` (Lambda function URL), `queue` (SQS subscriber with partial batch failures), `cron`
 * (scheduled), `task` (invoked by the storage-move state machine).
 */
export interface WorkerSpec {
  name: string;
  module: string;
  kind: "url" | "queue" | "cron" | "task";
  /** For cron: an EventBridge Scheduler rate expression, e.g. `rate(1 hour)`. */
  schedule?: string;
  /**
   * For url: the paths (Hono syntax) its clients call. A function URL answers every path on its own
   * host; locally it shares the API's port, so these are the paths sent to it there.
   */
  paths?: string[];
  /** For queue: the queue it consumes (default `IngestQueue`); each queue has one consumer. */
  queue?: QueueName;
  /**
   * For url: the response is streamed (Lambda response streaming) and may run up to Lambda's 15
   * minutes, for answers larger than a buffered invocation returns (git packs).
   */
  streaming?: boolean;
}

export type QueueName = "IngestQueue" | "HookQueue";

/**
 * How each queue's event source hands messages to its consumer (`stacks/queues.ts`), how the local
 * runtime's pollers do the same (`local/workers.ts`), and what the Sidekiq metrics report as a
 * consumer's concurrency. Dependency-free, like the rest of this file.
 *
 * The ingest consumer records a batch per error (`functions/errortracking/domain/process.ts`): a
 * storm of one error costs one write of its hot items per transaction of up to ~90 events, so the
 * batch is large, gathered for up to a second. Concurrency is capped because every consumer of a
 * storm writes the same items: two at once keep the error's item busy with few conflicts (a
 * transaction on it takes tens of milliseconds; each carries ~90 events), while one slow batch
 * cannot hold back everything behind it (docs/error-tracking.md, "Error storms").
 * Hook deliveries are independent requests to receivers: small batches, default concurrency.
 */
export interface QueueBatching {
  size: number;
  /** `maximumBatchingWindowInSeconds`: how long the event source gathers a batch (0: hand over at once). */
  windowSeconds: number;
  /** `scalingConfig.maximumConcurrency` (at least 2 on AWS); undefined: as many as Lambda scales to. */
  maximumConcurrency?: number;
}
export const QUEUE_BATCHING: Record<QueueName, QueueBatching> = {
  IngestQueue: { size: 250, windowSeconds: 1, maximumConcurrency: 2 },
  HookQueue: { size: 10, windowSeconds: 0 },
};

/** Entries whose modules live under `functions/<dir>/`: `routesIn("web/http")("GET", "/", "home")`. */
export const routesIn =
  (dir: string) =>
  (method: Method, path: string, module: string): RouteSpec => ({ method, path, module: dir ? `${dir}/${module}` : module });

/**
 * Project-scoped page and UI paths (`/<group>/<project>/-/…`) for one- and two-level namespaces:
 * API Gateway has no multi-segment parameter short of a catch-all, and the parameter names are the
 * same at each position (p1, p2, p3) so both shapes coexist there.
 */
export const projectScopedPaths = (suffix: string) => [`/:p1/:p2/-/${suffix}`, `/:p1/:p2/:p3/-/${suffix}`];
