/**
 * HTTP: one API Gateway (HTTP API, payload v2) route and one Lambda per route-table entry
 * (`functions/routes.ts`), plus a function URL for each `workers` entry of kind `url` (error ingest, Git over HTTP).
 *
 * Links and variables follow `linksOf` and `environmentOf` in ./plan (table for all; queue for
 * `errortracking/`, state machine for `moves/`; the bootstrap admin token for every route).
 * Defaults (JSON logs, memory, timeout, EFS + VPC for `hosting/` and `moves/`) come from
 * `withDefaults`, applied through `transform.route.handler`.
 */
import { routes, workers } from "../functions/routes";
import { apiRoutes, environmentOf, handlerOf, layersOf, LOG_RETENTION, pascal, timeoutOf, workersOfKind, type PlannedVariable } from "./plan";
import { lambdaArgs, linksFor, withDefaults } from "./functions";
import { ingestQueue } from "./queues";
import { storageMoveHistory, storageMoveMachine } from "./jobs";
import { backgroundWork } from "./monitoring";
import { bootstrapAdminToken, secretKey } from "./secrets";

const available = { queue: ingestQueue, machine: storageMoveMachine, history: storageMoveHistory, backgroundWork };

export const api = new sst.aws.ApiGatewayV2("Api", {
  accessLog: { retention: LOG_RETENTION },
  transform: { route: { handler: withDefaults } },
});

/**
 * The function URLs, one function each: error ingest (Sentry SDKs post there) and Git over HTTP
 * (streamed responses, the git layer). Not API routes.
 */
const urlFunctions = new Map(
  workersOfKind(workers, "url").map((worker) => [
    worker.module,
    new sst.aws.Function(
      pascal(worker.name),
      lambdaArgs({
        handler: handlerOf(worker.module),
        link: linksFor(worker.module, "url", available),
        url: true,
        ...(worker.streaming ? { streaming: true, timeout: `${timeoutOf(worker)} seconds` } : {}),
        ...(layersOf(worker.module).length > 0 ? { layers: layersOf(worker.module) } : {}),
      }),
    ),
  ]),
);

export const ingest = [...urlFunctions].find(([module]) => module.startsWith("errortracking/"))?.[1];
export const gitHttp = [...urlFunctions].find(([module]) => module.startsWith("hosting/git-http/"))?.[1];

for (const route of apiRoutes(routes)) {
  // Error tracking builds DSNs: they must point at the ingest function URL, not at the API; tracker
  // tokens are encrypted with the secret key (which routes get which: `environmentOf` in ./plan).
  // Clone URLs (`http_url_to_repo`) point at the Git function URL, which serves the Git paths.
  const values: Partial<Record<PlannedVariable, $util.Input<string>>> = {
    ...(ingest ? { FORGELINE_INGEST_URL: ingest.url } : {}),
    ...(gitHttp ? { FORGELINE_GIT_URL: gitHttp.url } : {}),
    FORGELINE_SECRET_KEY: secretKey.value,
  };
  api.route(route.key, {
    handler: route.handler,
    link: linksFor(route.module, "route", { ...available, bootstrapAdminToken }),
    environment: Object.fromEntries(environmentOf(route.module, "route").flatMap((name) => (values[name] === undefined ? [] : [[name, values[name]!]]))),
  });
}
