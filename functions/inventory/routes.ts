/** Inventory routes. Part of the one route table, `functions/routes.ts`. */
import type { RouteSpec } from "../routes.js";

export const inventoryRoutes: RouteSpec[] = [{ method: "GET", path: "/api/v4/repository_storages/inventory", module: "inventory/http/storage-inventory" }];
