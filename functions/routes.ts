/**
 * THE route table: every HTTP route once. Each bounded context keeps its slice next to its code
 * (`functions/<context>/routes.ts`) and this file assembles them. It drives the API Gateway routes in `stacks/api.ts` and the
 * local server (`local/server.ts`). `module` is relative to `functions/` and exports `endpoint` (and the
 * Lambda `handler` built from it). Path syntax is Hono's (`:id`); `stacks/` converts it to `{id}`.
 *
 * From a URL to its code in three hops: find the path here → open the module → its `keys.ts`/domain
 * module names the table access; its test sits in `test/<context>/`.
 */
import { academicRoutes } from "./academic/generated/routes.js";
import { hostingRoutes, hostingWorkers } from "./hosting/routes.js";
import { gitHttpWorkers } from "./hosting/git-http/routes.js";
import { inventoryRoutes, inventoryWorkers } from "./inventory/routes.js";
import { webRoutes } from "./web/routes.js";
import { moveConsoleRoutes, moveRoutes, moveWorkers } from "./moves/routes.js";
import { ingestWorkers } from "./errortracking/ingest-routes.js";
import { errorTrackingRoutes, errorTrackingWorkers } from "./errortracking/routes.js";
import { sentryApiRoutes } from "./errortracking/sentry-api/routes.js";
import { userAdminRoutes } from "./identity/user-admin-routes.js";
import { markdownRoutes } from "./markdown/routes.js";
import { monitoringRoutes } from "./monitoring/routes.js";

import { routesIn, type RouteSpec, type WorkerSpec } from "./route-spec.js";

export type { Method, RouteSpec, WorkerSpec } from "./route-spec.js";

const r = routesIn("");

export const routes: RouteSpec[] = [
  // ── platform / identity ────────────────────────────────────────────────────────────────────────
  r("GET", "/api/v4/version", "identity/http/version"),
  r("GET", "/api/v4/openapi.json", "platform/http/openapi-route"),
  r("GET", "/api/v4/user", "identity/http/current-user"),
  r("POST", "/api/v4/user/personal_access_tokens", "identity/http/create-own-token"),
  r("PUT", "/api/v4/user/avatar", "identity/http/update-own-avatar"),
  r("GET", "/api/v4/avatar", "identity/http/avatar-lookup"),
  r("GET", "/api/v4/user/status", "identity/http/get-own-status"),
  r("PUT", "/api/v4/user/status", "identity/http/put-own-status"),
  r("PATCH", "/api/v4/user/status", "identity/http/patch-own-status"),
  r("GET", "/api/v4/user/preferences", "identity/http/get-preferences"),
  r("PUT", "/api/v4/user/preferences", "identity/http/put-preferences"),
  r("GET", "/api/v4/user/activities", "identity/http/list-user-activities"),
  r("GET", "/api/v4/users", "identity/http/list-users"),
  r("POST", "/api/v4/users", "identity/http/create-user"),
  r("GET", "/api/v4/users/:user_id", "identity/http/get-user"),
  ...userAdminRoutes,
  r("POST", "/api/v4/users/:user_id/personal_access_tokens", "identity/http/create-token"),
  r("GET", "/api/v4/personal_access_tokens/self", "identity/http/token-self"),
  r("DELETE", "/api/v4/personal_access_tokens/self", "identity/http/revoke-token-self"),
  r("POST", "/api/v4/personal_access_tokens/self/rotate", "identity/http/rotate-token-self"),
  r("GET", "/api/v4/personal_access_tokens/self/associations", "hosting/http/list-token-associations"),
  r("GET", "/api/v4/personal_access_tokens", "identity/http/list-tokens"),
  r("GET", "/api/v4/personal_access_tokens/:id", "identity/http/get-token"),
  r("DELETE", "/api/v4/personal_access_tokens/:id", "identity/http/revoke-token"),
  r("POST", "/api/v4/personal_access_tokens/:id/rotate", "identity/http/rotate-token"),
  r("GET", "/api/v4/application/settings", "identity/http/get-settings"),
  r("PUT", "/api/v4/application/settings", "identity/http/update-settings"),

  // ── hosting: projects, groups, members, repositories (functions/hosting/routes.ts) ──────────────
  ...hostingRoutes,

  // ── Markdown rendering (functions/markdown/routes.ts) ───────────────────────────────────────────
  ...markdownRoutes,

  // ── background work as GitLab's Sidekiq metrics (functions/monitoring/routes.ts) ─────────────────
  ...monitoringRoutes,

  // ── inventory: repositories per storage (functions/inventory/routes.ts) ───────────────────────────
  ...inventoryRoutes,

  // ── repository storage moves (functions/moves/routes.ts) ────────────────────────────────────────
  ...moveRoutes,

  // ── web pages and browser sessions (functions/web/routes.ts) ─────────────────────────────────────
  ...webRoutes,

  // ── the operator console's JSON: storages and storage moves (functions/moves/routes.ts) ─────────
  ...moveConsoleRoutes,

  // ── error tracking: settings, client keys, the project-scoped UI JSON (functions/errortracking/routes.ts) ──
  ...errorTrackingRoutes,

  // ── the tracker (Sentry) web API this service offers over its error data (functions/errortracking/sentry-api/routes.ts) ──
  ...sentryApiRoutes,

  // ── academic REST extension interface (/rest/, /rest/v2/): generated from rest/ by pers_autoload ──
  ...academicRoutes,
];

/** Functions that are not HTTP routes (function URL, queue consumers, cron, state-machine tasks). */
export const workers: WorkerSpec[] = [...ingestWorkers, ...gitHttpWorkers, ...errorTrackingWorkers, ...inventoryWorkers, ...hostingWorkers, ...moveWorkers];
