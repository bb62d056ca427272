/** Inventory routes and workers. Part of the one route table, `functions/routes.ts`. */
import type { RouteSpec, WorkerSpec } from "../route-spec.js";

export const inventoryRoutes: RouteSpec[] = [{ method: "GET", path: "/api/v4/repository_storages/inventory", module: "inventory/http/storage-inventory" }];

export const inventoryWorkers: WorkerSpec[] = [{ name: "stray-sweep", module: "inventory/workers/sweep-strays", kind: "cron", schedule: "rate(1 hour)" }];
