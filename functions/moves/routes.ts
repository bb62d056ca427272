/**
 * Storage-move routes and the state machine's task workers. Part of the one route table,
 * `functions/routes.ts`. Task worker names are what `storage-move.asl.json` references as
 * `"${task:<name>}"`.
 */
import type { RouteSpec, WorkerSpec } from "../route-spec.js";

const plural = { project: "projects", snippet: "snippets", group: "groups" } as const;

function routesOf(kind: keyof typeof plural): RouteSpec[] {
  const r = (method: RouteSpec["method"], path: string, module: string): RouteSpec => ({ method, path, module: `moves/http/${plural[kind]}/${module}` });
  const all = `/api/v4/${kind}_repository_storage_moves`;
  const one = `/api/v4/${plural[kind]}/:id/repository_storage_moves`;
  return [
    r("GET", all, "list-storage-moves"),
    r("POST", all, "schedule-storage-moves"),
    r("GET", `${all}/:repository_storage_move_id`, "get-storage-move"),
    // Operators only, not GitLab's: the Step Functions execution and step history of one move.
    r("GET", `${all}/:repository_storage_move_id/execution`, "get-storage-move-execution"),
    // Operators only, not GitLab's: stop a bulk move, or change how many of its moves run at once.
    r("POST", `${all}/cancel`, "cancel-storage-moves"),
    r("PUT", `${all}/concurrency`, "set-storage-moves-concurrency"),
    r("GET", one, "list-container-moves"),
    r("POST", one, "schedule-container-move"),
    r("GET", `${one}/:repository_storage_move_id`, "get-container-move"),
  ];
}

export const moveRoutes: RouteSpec[] = [
  ...routesOf("project"),
  ...routesOf("snippet"),
  ...routesOf("group"),
  // Operators only, not GitLab's: the moves that would spread repositories by storage weight.
  { method: "GET", path: "/api/v4/repository_storages/rebalance_plan", module: "moves/http/rebalance-plan" },
  // Operators only, not GitLab's: what a storage-wide move would move, whether it fits, how long it takes.
  { method: "GET", path: "/api/v4/repository_storages/move_plan", module: "moves/http/move-plan" },
];

/**
 * The operator console's data (administrators; GitLab's 404 to anyone else), not GitLab's: what the
 * console's pages (`functions/web/admin/`) show, as JSON any script can read too.
 */
export const moveConsoleRoutes: RouteSpec[] = [
  { method: "GET", path: "/admin/storages.json", module: "moves/http/console/storages" },
  { method: "GET", path: "/admin/storage_moves.json", module: "moves/http/console/moves" },
  { method: "GET", path: "/admin/storage_moves/plan.json", module: "moves/http/console/plan" },
  { method: "GET", path: "/admin/storage_moves/rebalance.json", module: "moves/http/console/rebalance" },
  { method: "GET", path: "/admin/storage_moves/:type/:id/details.json", module: "moves/http/console/move" },
  // Its execution's events: the only console function with the Step Functions client (and IAM's GetExecutionHistory).
  { method: "GET", path: "/admin/storage_moves/:type/:id/execution.json", module: "moves/http/console/execution" },
];

const task = (name: string, module: string): WorkerSpec => ({ name, module: `moves/tasks/${module}`, kind: "task" });

export const moveWorkers: WorkerSpec[] = [
  task("moveScheduleBatch", "schedule-batch"),
  task("moveStart", "start"),
  task("moveCheckWrites", "check-writes"),
  task("moveReplicate", "replicate"),
  task("moveSwitch", "switch"),
  task("moveCleanup", "cleanup"),
  task("moveFinish", "finish"),
  task("moveFail", "fail"),
  task("moveSummarise", "summarise"),
];
