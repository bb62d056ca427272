/**
 * The error-tracking ingest function: one Lambda behind a function URL (not API Gateway), serving
 * the Sentry collector paths it registers itself (`ingest/collector.ts` `mount`).
 */
import type { WorkerSpec } from "../route-spec.js";

export const ingestWorkers: WorkerSpec[] = [
  { name: "Ingest", module: "errortracking/ingest/collector", kind: "url", paths: ["/api/v4/error_tracking/collector/*"] },
];
