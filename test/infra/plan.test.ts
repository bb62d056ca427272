/**
 * The infra maps the route table completely and consistently. These run without SST: `stacks/plan.ts`
 * holds the pure decisions that `stacks/*.ts` turn into resources.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { routes, workers } from "../../functions/routes";
import { toApiGatewayPath as appToApiGatewayPath } from "../../functions/platform/http/lambda";
import { tableDefinition } from "../../functions/platform/db/table";
import {
  apiRouteKeys,
  apiRoutes,
  cronSchedule,
  defaultStageStorages,
  environmentOf,
  linksOf,
  mainTable,
  needsOf,
  nodeModulesOf,
  parseStageStorages,
  singleWorker,
  storageLayout,
  substituteTasks,
  taskPlaceholders,
  toApiGatewayPath,
  workersOfKind,
} from "../../stacks/plan";

const root = fileURLToPath(new URL("../../", import.meta.url));

describe("API routes", () => {
  it("maps every route-table entry to exactly one API Gateway route", () => {
    const keys = apiRouteKeys(routes);
    expect(keys).toHaveLength(routes.length);
    expect(new Set(keys).size).toBe(routes.length);
    for (const r of routes) expect(keys).toContain(`${r.method} ${appToApiGatewayPath(r.path)}`);
    for (const k of keys) expect(k).toMatch(/^(GET|HEAD|POST|PUT|PATCH|DELETE) \/[^:\s]*$/);
  });

  it("points every route and worker at a module file that exports a handler", () => {
    const modules = [...apiRoutes(routes).map((r) => r.module), ...workers.map((w) => w.module)];
    const broken = modules.filter((m) => {
      const file = `${root}functions/${m}.ts`;
      return !existsSync(file) || !/export\s+(const|function|async function|let)\s+handler\b|export\s*\{[^}]*\bhandler\b/.test(readFileSync(file, "utf8"));
    });
    expect(broken).toEqual([]);
  });

  it("rejects a duplicate route", () => {
    const r = routes[0] ?? { method: "GET" as const, path: "/x", module: "x" };
    expect(() => apiRoutes([r, { ...r }])).toThrow(/twice/);
  });
});

describe("copies of app code stay equal to the originals", () => {
  it("toApiGatewayPath", () => {
    const samples = [...routes.map((r) => r.path), "/a/:b/c/:d_e", "/files/*", "/plain"];
    for (const p of samples) expect(toApiGatewayPath(p)).toBe(appToApiGatewayPath(p));
  });

  it("the table definition", () => {
    expect(Object.keys(mainTable.fields)).toEqual([...tableDefinition.attributes]);
    expect(mainTable.primaryIndex).toEqual(tableDefinition.primaryIndex);
    expect(mainTable.globalIndexes).toEqual(tableDefinition.globalIndexes);
    expect(mainTable.ttl).toBe(tableDefinition.ttl);
  });
});

describe("least privilege", () => {
  it("links the queue, the state machine and storage only to their contexts", () => {
    expect(needsOf("identity/http/version")).toEqual({ queue: false, stateMachine: false, storage: false });
    expect(needsOf("inventory/http/storage-inventory")).toEqual({ queue: false, stateMachine: false, storage: true });
    expect(needsOf("errortracking/http/ingest")).toEqual({ queue: true, stateMachine: false, storage: false });
    expect(needsOf("moves/http/start")).toEqual({ queue: false, stateMachine: true, storage: true });
    expect(needsOf("hosting/http/projects")).toEqual({ queue: false, stateMachine: false, storage: true });
  });

  it("gives the hook queue to its producer and its consumer only, and the hook worker nothing else", () => {
    expect(linksOf("errortracking/workers/consumer", "queue")).toEqual(["Main", "IngestQueue", "HookQueue"]);
    expect(linksOf("errortracking/workers/hook-delivery", "queue")).toEqual(["Main", "HookQueue"]);
    expect(environmentOf("errortracking/workers/hook-delivery", "queue")).toEqual(["FORGELINE_SECRET_KEY"]);
    const others = [...routes.map((r) => linksOf(r.module, "route")), ...workers.filter((w) => !w.module.startsWith("errortracking/workers/")).map((w) => linksOf(w.module, w.kind))];
    expect(others.filter((links) => links.includes("HookQueue"))).toEqual([]);
  });

  it("gives the operator console's JSON no link to start or stop executions; its move views read histories", () => {
    const consoleModules = routes.filter((r) => r.module.startsWith("moves/http/console/")).map((r) => r.module);
    expect(consoleModules.length).toBeGreaterThanOrEqual(6);
    for (const module of consoleModules) expect(linksOf(module, "route"), module).not.toContain("StorageMoveMachine");
    expect(linksOf("moves/http/console/move", "route")).toEqual(["Main", "StorageMoveHistory", "BootstrapAdminToken"]);
    expect(linksOf("moves/http/console/storages", "route")).toEqual(["Main", "BootstrapAdminToken"]);
    expect(linksOf("moves/http/projects/schedule-container-move", "route")).toContain("StorageMoveMachine");
  });

  it("gives the read-only view of the background work to the Sidekiq metrics routes only", () => {
    expect(linksOf("monitoring/http/job-stats", "route")).toEqual(["Main", "BackgroundWork", "BootstrapAdminToken"]);
    const holders = [...routes.map((r) => ({ module: r.module, links: linksOf(r.module, "route") })), ...workers.map((w) => ({ module: w.module, links: linksOf(w.module, w.kind) }))];
    expect([...new Set(holders.filter((h) => h.links.includes("BackgroundWork")).map((h) => h.module))].sort()).toEqual([
      "monitoring/http/compound-metrics",
      "monitoring/http/job-stats",
      "monitoring/http/process-metrics",
      "monitoring/http/queue-metrics",
    ]);
  });
});

describe("files read at run time", () => {
  it("the Swagger UI page's function ships swagger-ui-dist in its node_modules, and only it", () => {
    expect(nodeModulesOf("academic/http/swagger-ui")).toEqual(["swagger-ui-dist"]);
    const otros = routes.filter((r) => r.module !== "academic/http/swagger-ui").flatMap((r) => nodeModulesOf(r.module));
    expect(otros).toEqual([]);
    expect(routes.filter((r) => r.module === "academic/http/swagger-ui").length).toBe(8);
  });
});

describe("workers", () => {
  it("the route table's workers fit their slots", () => {
    expect(singleWorker(workers, "queue")?.module).toBe("errortracking/workers/consumer");
    expect(singleWorker(workers, "queue", "HookQueue")?.module).toBe("errortracking/workers/hook-delivery");
    for (const w of workersOfKind(workers, "cron")) expect(() => cronSchedule(w)).not.toThrow();
  });

  it("rejects a second queue consumer and a cron without schedule", () => {
    const q = { name: "a", module: "errortracking/a", kind: "queue" as const };
    expect(() => singleWorker([q, { ...q, name: "b" }], "queue")).toThrow(/At most one/);
    // One consumer per queue: a hook worker beside the ingest consumer is not a second one.
    const hooks = { ...q, name: "h", queue: "HookQueue" as const };
    expect(singleWorker([q, hooks], "queue", "IngestQueue")).toBe(q);
    expect(singleWorker([q, hooks], "queue", "HookQueue")).toBe(hooks);
    expect(() => singleWorker([q, hooks, { ...hooks, name: "h2" }], "queue", "HookQueue")).toThrow(/At most one/);
    expect(() => cronSchedule({ name: "c", module: "c", kind: "cron" })).toThrow(/schedule/);
    expect(cronSchedule({ name: "c", module: "c", kind: "cron", schedule: "rate(1 hour)" })).toBe("rate(1 hour)");
  });
});

describe("storage-move ASL", () => {
  const asl = {
    StartAt: "Copy",
    States: {
      Copy: { Type: "Task", Resource: "${task:copy-repo}", Next: "Done" },
      Done: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Parameters: { FunctionName: "${task:finish}" }, End: true },
    },
  };

  it("replaces ${task:<name>} with the task Lambda ARNs", () => {
    expect(taskPlaceholders(asl)).toEqual(["copy-repo", "finish"]);
    const out = substituteTasks(asl, { "copy-repo": "arn:copy", finish: "arn:finish" }) as typeof asl;
    expect(out.States.Copy.Resource).toBe("arn:copy");
    expect(out.States.Done.Parameters.FunctionName).toBe("arn:finish");
    expect(out.States.Done.Resource).toBe("arn:aws:states:::lambda:invoke");
    expect(() => substituteTasks(asl, { finish: "arn:finish" })).toThrow(/copy-repo/);
  });

  it("the real ASL, when present, names only task workers from the route table", () => {
    const file = `${root}functions/moves/storage-move.asl.json`;
    if (!existsSync(file)) return;
    const tasks = new Set(workersOfKind(workers, "task").map((w) => w.name));
    const unknown = taskPlaceholders(JSON.parse(readFileSync(file, "utf8"))).filter((n) => !tasks.has(n));
    expect(unknown).toEqual([]);
  });
});

describe("storages", () => {
  it("gives each storage (each cluster replica) its own access point and mount path", () => {
    const { accessPoints, storages } = storageLayout(defaultStageStorages);
    expect(accessPoints).toEqual([
      { name: "Default", path: "/storages/default" },
      { name: "ClusterReplica1", path: "/storages/cluster/replica-1" },
      { name: "ClusterReplica2", path: "/storages/cluster/replica-2" },
      { name: "ClusterReplica3", path: "/storages/cluster/replica-3" },
    ]);
    expect(storages).toEqual({
      default: { kind: "local", path: "/mnt/storages/default" },
      cluster: {
        kind: "cluster",
        replicas: ["/mnt/storages/cluster/replica-1", "/mnt/storages/cluster/replica-2", "/mnt/storages/cluster/replica-3"],
      },
    });
  });

  it("validates the stage storage config", () => {
    expect(parseStageStorages({ a: { kind: "local" } }, "t")).toEqual({ a: { kind: "local" } });
    expect(() => parseStageStorages({}, "t")).toThrow();
    expect(() => parseStageStorages({ "bad name": { kind: "local" } }, "t")).toThrow();
    expect(() => parseStageStorages({ c: { kind: "cluster", replicas: 0 } }, "t")).toThrow();
  });

  it("produces a FORGELINE_CONFIG_JSON the app accepts", async () => {
    const { instanceConfigSchema } = await import("../../functions/platform/config");
    const parsed = instanceConfigSchema.safeParse({ storages: storageLayout(defaultStageStorages).storages });
    expect(parsed.success).toBe(true);
  });
});
