/**
 * Error tracking routes and workers. Part of the one route table, `functions/routes.ts`. The ingest
 * function URL (Sentry SDKs post there) is `ingest-routes.ts`, owned by the ingestion side.
 *
 * The project-scoped UI JSON routes are listed for one- and two-level namespaces
 * (`group/project`, `group/subgroup/project`): API Gateway has no multi-segment parameter other than a
 * catch-all. Deeper projects are not reachable through these routes (documented limit).
 */
import { projectScopedPaths, routesIn, type RouteSpec, type WorkerSpec } from "../route-spec.js";

const r = routesIn("errortracking/http");
const ui = (method: RouteSpec["method"], suffix: string, module: string) => projectScopedPaths(`error_tracking${suffix}`).map((path) => r(method, path, module));

export const errorTrackingRoutes: RouteSpec[] = [
  r("GET", "/api/v4/projects/:id/error_tracking/settings", "get-settings"),
  r("PATCH", "/api/v4/projects/:id/error_tracking/settings", "patch-settings"),
  r("PUT", "/api/v4/projects/:id/error_tracking/settings", "put-settings"),
  r("GET", "/api/v4/projects/:id/error_tracking/client_keys", "list-client-keys"),
  r("POST", "/api/v4/projects/:id/error_tracking/client_keys", "create-client-key"),
  r("DELETE", "/api/v4/projects/:id/error_tracking/client_keys/:key_id", "delete-client-key"),
  // Project hooks: GitLab's API; this service fires `error_tracking_events` (../errortracking/hooks/).
  r("GET", "/api/v4/projects/:id/hooks", "list-hooks"),
  r("POST", "/api/v4/projects/:id/hooks", "create-hook"),
  r("GET", "/api/v4/projects/:id/hooks/:hook_id", "get-hook"),
  r("PUT", "/api/v4/projects/:id/hooks/:hook_id", "update-hook"),
  r("DELETE", "/api/v4/projects/:id/hooks/:hook_id", "delete-hook"),
  r("GET", "/api/v4/projects/:id/hooks/:hook_id/events", "list-hook-events"),
  r("POST", "/api/v4/projects/:id/hooks/:hook_id/test/:trigger", "test-hook"),
  r("POST", "/api/v4/projects/:id/hooks/:hook_id/events/:hook_event_id/resend", "resend-hook-event"),
  r("PUT", "/api/v4/projects/:id/hooks/:hook_id/custom_headers/:key", "set-hook-custom-header"),
  r("DELETE", "/api/v4/projects/:id/hooks/:hook_id/custom_headers/:key", "delete-hook-custom-header"),
  r("PUT", "/api/v4/projects/:id/hooks/:hook_id/url_variables/:key", "set-hook-url-variable"),
  r("DELETE", "/api/v4/projects/:id/hooks/:hook_id/url_variables/:key", "delete-hook-url-variable"),
  ...ui("GET", ".json", "list-errors"),
  ...ui("GET", "/:issue_id/details.json", "error-details"),
  ...ui("GET", "/:issue_id/stack_trace.json", "stack-trace"),
  ...ui("GET", "/:issue_id/events.json", "list-error-events"),
  ...ui("GET", "/:issue_id/events/:event_id/details.json", "error-event"),
  // `:issue_id` takes the whole `123.json` segment: API Gateway parameters cannot share a segment.
  ...ui("PUT", "/:issue_id", "update-error"),
];

export const errorTrackingWorkers: WorkerSpec[] = [
  { name: "ingest-consumer", module: "errortracking/workers/consumer", kind: "queue" },
  { name: "hook-delivery", module: "errortracking/workers/hook-delivery", kind: "queue", queue: "HookQueue" },
  { name: "error-retention", module: "errortracking/workers/retention", kind: "cron", schedule: "rate(1 hour)" },
];
