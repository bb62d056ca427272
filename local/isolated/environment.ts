/**
 * A function's environment in isolated mode: what `stacks/` gives it on AWS and nothing else.
 * - its links (`linksOf` in stacks/plan.ts), as SST passes them: `SST_RESOURCE_<Name>` JSON;
 * - its variables (`environmentOf`): the ingest URL (locally, this server) and the secret key;
 * - `FORGELINE_CONFIG_JSON` (every function), with the storage paths resolved;
 * - where the data folder's space reserve is, when the table is on disk;
 * - what Lambda's runtime sets: region, credentials, `TZ`, `PATH` (and, on a Node older than
 *   Lambda's, the switch that keeps the AWS SDK's version warning to the runtime's one notice);
 * - an SDK endpoint per service: the stand-in for a linked one, and for an unlinked one a loopback
 *   endpoint that refuses every call as IAM would (`deny.ts`), so nothing can reach past its links.
 * The operator's `FORGELINE_*` tuning settings (FORGELINE_AUTH_CACHE_MS, FORGELINE_MOVE_BATCH_SIZE, …)
 * and `LOG_LEVEL` pass through, as a deployment would set them on its functions. `AWS_LAMBDA_*` is
 * not set: this is still the local instance (development-only conveniences such as the academic
 * development users stay on).
 */
import { environmentOf, linksOf, type FunctionKind, type LinkName } from "../../stacks/plan.js";

/** Settings that name a resource or a secret: a function gets them only through its links. */
const NOT_PASSED = /^FORGELINE_(CONFIG|CONFIG_JSON|DATA_DIR|SECRET_KEY|INGEST_URL|GIT_URL|BOOTSTRAP_ADMIN_TOKEN|PORT|HOST|ISOLATED.*|LOCAL_.*|BENCH_.*)$/;

export interface EnvironmentSources {
  /** The runtime's own environment (stand-in endpoints, `SST_RESOURCE_*` of every resource). */
  parent: NodeJS.ProcessEnv;
  instanceConfigJson: string;
  /** Values of the variables `environmentOf` names. */
  variables: { FORGELINE_INGEST_URL?: string; FORGELINE_GIT_URL?: string; FORGELINE_SECRET_KEY?: string };
  /** The endpoint that answers AccessDenied to every call. */
  deniedEndpoint: string;
}

const serviceOfLink: Partial<Record<LinkName, Array<"SQS" | "SFN">>> = { IngestQueue: ["SQS"], HookQueue: ["SQS"], StorageMoveMachine: ["SFN"], StorageMoveHistory: ["SFN"], BackgroundWork: ["SQS", "SFN"] };

export function functionEnvironment(module: string, kind: FunctionKind, src: EnvironmentSources): Record<string, string> {
  const { parent } = src;
  const env: Record<string, string> = {
    PATH: parent.PATH ?? "/usr/bin:/bin",
    TZ: "UTC",
    LANG: "en_US.UTF-8",
    AWS_REGION: parent.AWS_REGION ?? "us-east-1",
    AWS_DEFAULT_REGION: parent.AWS_REGION ?? "us-east-1",
    AWS_ACCESS_KEY_ID: parent.AWS_ACCESS_KEY_ID ?? "local",
    AWS_SECRET_ACCESS_KEY: parent.AWS_SECRET_ACCESS_KEY ?? "local",
    AWS_ENDPOINT_URL_DYNAMODB: parent.AWS_ENDPOINT_URL_DYNAMODB ?? src.deniedEndpoint,
    AWS_ENDPOINT_URL_SQS: src.deniedEndpoint,
    AWS_ENDPOINT_URL_SFN: src.deniedEndpoint,
    FORGELINE_CONFIG_JSON: src.instanceConfigJson,
  };
  // On a Node older than Lambda's, the runtime has said so once (local/node-version.ts): the SDK in
  // every function process would otherwise repeat its nine-line warning at each cold start.
  if (parent.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED) env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = parent.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && (name === "LOG_LEVEL" || (name.startsWith("FORGELINE_") && !NOT_PASSED.test(name)))) env[name] = value;
  }
  // The space kept back in the data folder (`platform/space-reserve.ts`): a fact of this machine,
  // which a deployment does not have.
  if (parent.FORGELINE_LOCAL_SPACE_RESERVE) env.FORGELINE_LOCAL_SPACE_RESERVE = parent.FORGELINE_LOCAL_SPACE_RESERVE;
  for (const link of linksOf(module, kind)) {
    const value =
      link === "BootstrapAdminToken"
        ? JSON.stringify({ value: parent.FORGELINE_BOOTSTRAP_ADMIN_TOKEN ?? "" })
        : parent[`SST_RESOURCE_${link}`];
    if (value === undefined) continue; // not deployed here (e.g. no state machine without its ASL)
    env[`SST_RESOURCE_${link}`] = value;
    for (const service of serviceOfLink[link] ?? []) env[`AWS_ENDPOINT_URL_${service}`] = parent[`AWS_ENDPOINT_URL_${service}`] ?? src.deniedEndpoint;
  }
  for (const name of environmentOf(module, kind)) {
    const value = src.variables[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
