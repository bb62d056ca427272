/**
 * What every Lambda of the app shares: runtime defaults, instance config, the storage mount, and the
 * least-privilege link rule (`needsOf` in ./plan). Used as the API's `transform.route.handler` and for
 * every worker, so HTTP routes and workers follow one rule.
 */
import { LAMBDA_RUNTIME, linksOf, LOG_RETENTION, moduleOfHandler, needsOf, nodejsOf, STORAGE_MOUNT, TIMEOUT_SECONDS, type FunctionKind, type LinkName } from "./plan";
import { efs, instanceConfigJson, table, vpc } from "./storage";

/** Fills in defaults a function did not set itself (a `Transform<FunctionArgs>`: mutates `args`). */
export function withDefaults(args: sst.aws.FunctionArgs): undefined {
  const module = typeof args.handler === "string" ? moduleOfHandler(args.handler) : undefined;
  const storage = module !== undefined && needsOf(module).storage;
  // Set, not defaulted: `npm run build` and isolated mode bundle every function for this runtime
  // with these options (stacks/plan.ts), so a function of its own would ship what no test ran.
  args.runtime = LAMBDA_RUNTIME;
  args.nodejs = nodejsOf(module);
  args.architecture ??= "arm64";
  args.memory ??= storage ? "1024 MB" : "512 MB";
  // HTTP API gives up after 30 s, so a route's Lambda must finish before that.
  args.timeout ??= `${TIMEOUT_SECONDS.route} seconds`;
  args.logging ??= { format: "json", retention: LOG_RETENTION };
  args.environment = $output(args.environment ?? {}).apply((env) => ({
    FORGELINE_CONFIG_JSON: instanceConfigJson,
    ...(process.env.FORGELINE_REVISION ? { FORGELINE_REVISION: process.env.FORGELINE_REVISION } : {}),
    ...env,
  }));
  if (storage) {
    args.vpc ??= vpc;
    args.volume ??= { efs, path: STORAGE_MOUNT };
  }
  return undefined;
}

/** `withDefaults` as an expression, for workers built outside a component transform. */
export function lambdaArgs(args: sst.aws.FunctionArgs): sst.aws.FunctionArgs {
  withDefaults(args);
  return args;
}

export interface Linkables {
  queue?: sst.aws.Queue;
  hookQueue?: sst.aws.Queue;
  machine?: sst.Linkable<{ arn: $util.Output<string> }>;
  history?: sst.Linkable<{ arn: $util.Output<string> }>;
  bootstrapAdminToken?: sst.Secret;
  backgroundWork?: sst.Linkable<any>;
}

/**
 * Links for a function: `linksOf` in ./plan names them (the one least-privilege rule, which the
 * local isolated mode follows too); those that do not exist here are skipped (a task worker is built
 * before the machine that invokes it; without its ASL file there is no machine).
 */
export function linksFor(module: string, kind: FunctionKind, available: Linkables) {
  const byName: Record<LinkName, sst.Linkable<any> | sst.aws.Dynamo | sst.aws.Queue | sst.Secret | undefined> = {
    Main: table,
    IngestQueue: available.queue,
    HookQueue: available.hookQueue,
    StorageMoveMachine: available.machine,
    StorageMoveHistory: available.history,
    BootstrapAdminToken: available.bootstrapAdminToken,
    BackgroundWork: available.backgroundWork,
  };
  return linksOf(module, kind).flatMap((name) => (byName[name] ? [byName[name]!] : []));
}
