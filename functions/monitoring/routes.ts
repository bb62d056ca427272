/** GitLab's Sidekiq metrics API over this service's background work. Part of the one route table, `functions/routes.ts`. */
import type { RouteSpec } from "../route-spec.js";

const r = (path: string, module: string): RouteSpec => ({ method: "GET", path: `/api/v4/sidekiq/${path}`, module: `monitoring/http/${module}` });

export const monitoringRoutes: RouteSpec[] = [
  r("queue_metrics", "queue-metrics"),
  r("process_metrics", "process-metrics"),
  r("job_stats", "job-stats"),
  r("compound_metrics", "compound-metrics"),
];
