/**
 * Runs `sst.config.ts`'s `run()` against a recording fake of SST's globals (./fake-sst.ts) and checks
 * what it would deploy: one API route per route-table entry with the right handler, links and
 * defaults; storages; the queue consumer; crons; the state machine's task ARNs.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes, workers } from "../../functions/routes";
import { instanceConfigSchema } from "../../functions/platform/config";
import { DELIVERY_LEASE_MS } from "../../functions/errortracking/hooks/delivery";
import { apiRouteKeys, environmentOf, EXECUTION_HISTORY_MODULES, LAMBDA_RUNTIME, linksOf, needsOf, nodejsOf, pascal, workersOfKind, type FunctionKind } from "../../stacks/plan";
import { declared, FakeResource, installFakeSst, uninstallFakeSst, unwrap } from "./fake-sst";

// Not a literal import: the app's tsconfig must not follow it into SST-global code.
const configModule = "../../sst.config.ts";
let outputs: Record<string, unknown>;

const ofType = (type: string) => declared.filter((d) => d.type === type);
const linkNames = (link: unknown) => (unwrap(link) as FakeResource[]).map((r) => r.name);
/** The arguments of every Lambda declared: API routes, function URLs, crons and queue consumers. */
const everyFunctionArgs = () => [
  ...ofType("sst.aws.ApiGatewayV2")[0]!.resource.calls.map((c) => c.args[1]),
  ...ofType("sst.aws.Function").map((d) => d.args),
  ...ofType("sst.aws.CronV2").map((d) => d.args.function),
  ...ofType("sst.aws.Queue").flatMap((d) => d.resource.calls.map((c) => c.args[0])),
];

beforeAll(async () => {
  installFakeSst();
  process.env.FORGELINE_STORAGES = JSON.stringify({ default: { kind: "local" }, cluster: { kind: "cluster", replicas: 2 } });
  const config = (await import(/* @vite-ignore */ configModule)).default as { run(): Promise<Record<string, unknown>> };
  outputs = await config.run();
  delete process.env.FORGELINE_STORAGES;
});

afterAll(uninstallFakeSst);

describe("sst.config.ts run()", () => {
  it("declares one API route per route-table entry, in order, with its module's handler", () => {
    const [api] = ofType("sst.aws.ApiGatewayV2");
    const calls = api!.resource.calls.filter((c) => c.method === "route");
    expect(calls.map((c) => c.args[0])).toEqual(apiRouteKeys(routes));
    routes.forEach((r, i) => expect(calls[i]!.args[1].handler).toBe(`functions/${r.module}.handler`));
  });

  it("gives every route JSON logs, the table, instance config, and only the links its context needs", () => {
    const [api] = ofType("sst.aws.ApiGatewayV2");
    for (const { args } of api!.resource.calls) {
      const [key, fn] = args;
      const module = routes.find((r) => `functions/${r.module}.handler` === fn.handler)!.module;
      expect(fn.logging, key).toMatchObject({ format: "json" });
      const links = linkNames(fn.link);
      expect(links, key).toContain("Main");
      expect(links.includes("IngestQueue"), key).toBe(needsOf(module).queue);
      expect(links.includes("StorageMoveMachine"), key).toBe(needsOf(module).stateMachine && existsSync("functions/moves/storage-move.asl.json"));
      expect(fn.volume !== undefined, key).toBe(needsOf(module).storage);
      const config = JSON.parse(unwrap(fn.environment).FORGELINE_CONFIG_JSON);
      expect(instanceConfigSchema.safeParse(config).success, key).toBe(true);
    }
  });

  it("links and configures every function exactly as linksOf/environmentOf say (what isolated mode gives it)", () => {
    const functions: Array<{ module: string; kind: FunctionKind; args: Record<string, any> }> = [];
    const moduleOf = (handler: string) => /^functions\/(.+)\.handler$/.exec(handler)![1]!;
    for (const { args } of ofType("sst.aws.ApiGatewayV2")[0]!.resource.calls) functions.push({ module: moduleOf(args[1].handler), kind: "route", args: args[1] });
    for (const d of ofType("sst.aws.Function")) {
      const worker = workers.find((w) => `functions/${w.module}.handler` === d.args.handler)!;
      functions.push({ module: worker.module, kind: worker.kind, args: d.args });
    }
    for (const d of ofType("sst.aws.CronV2")) functions.push({ module: moduleOf(d.args.function.handler), kind: "cron", args: d.args.function });
    for (const d of ofType("sst.aws.Queue")) for (const c of d.resource.calls) functions.push({ module: moduleOf(c.args[0].handler), kind: "queue", args: c.args[0] });
    expect(functions).toHaveLength(routes.length + workers.length);
    const machine = existsSync("functions/moves/storage-move.asl.json");
    for (const { module, kind, args } of functions) {
      const expected = linksOf(module, kind).filter((n) => (n !== "StorageMoveMachine" && n !== "StorageMoveHistory") || machine);
      expect(linkNames(args.link), `${kind} ${module}`).toEqual(expected);
      const env = Object.keys(unwrap(args.environment)).filter((k) => k !== "FORGELINE_CONFIG_JSON").sort();
      expect(env, `${kind} ${module}`).toEqual([...environmentOf(module, kind)].sort());
    }
  });

  it("bundles every function with the runtime and nodejs options npm run build and isolated mode bundle it with", () => {
    const moduleOf = (handler: string) => /^functions\/(.+)\.handler$/.exec(handler)![1]!;
    const functions = everyFunctionArgs();
    expect(functions).toHaveLength(routes.length + workers.length);
    for (const fn of functions) {
      expect(fn.runtime, fn.handler).toBe(LAMBDA_RUNTIME);
      expect(fn.nodejs, fn.handler).toEqual(nodejsOf(moduleOf(fn.handler)));
    }
  });

  it("creates one EFS access point per storage and cluster replica", () => {
    expect(ofType("aws.efs.AccessPoint").map((d) => d.args.rootDirectory.path)).toEqual([
      "/storages/default",
      "/storages/cluster/replica-1",
      "/storages/cluster/replica-2",
    ]);
  });

  it("wires the queues (DLQ, visibility timeout), their consumers, crons and task functions from the workers", () => {
    const queues = ["IngestQueue", "HookQueue"].map((name) => ofType("sst.aws.Queue").find((d) => d.name === name)!);
    expect(queues.map((q) => q.args.dlq.retry)).toEqual([5, 8]);
    const subscribed = queues.map((queue) => ({ queue, calls: queue.resource.calls.filter((c) => c.method === "subscribe") }));
    // One consumer per queue, each the worker that names that queue.
    expect(subscribed.map(({ calls }) => calls.map((c) => c.args[0].handler))).toEqual([
      ["functions/errortracking/workers/consumer.handler"],
      ["functions/errortracking/workers/hook-delivery.handler"],
    ]);
    expect(subscribed.flatMap(({ calls }) => calls)).toHaveLength(workersOfKind(workers, "queue").length);
    for (const { queue, calls } of subscribed) {
      for (const { args } of calls) expect(parseInt(queue.args.visibilityTimeout)).toBeGreaterThanOrEqual(6 * parseInt(args[0].timeout));
    }
    // The ingest consumer records a batch per error: large batches gathered for a second, at most two
    // at once (a storm's consumers all write the same items); partial responses for both queues.
    const [ingest, hooks] = subscribed.map(({ calls }) => calls[0]!.args[1]);
    expect(ingest).toEqual({ batch: { size: 250, window: "1 seconds", partialResponses: true }, transform: { eventSourceMapping: { scalingConfig: { maximumConcurrency: 2 } } } });
    expect(hooks).toEqual({ batch: { size: 10, partialResponses: true } });
    // The hook worker reaches its own queue and the table; it decrypts hook tokens with the secret key.
    const [hookWorker] = subscribed[1]!.calls;
    // A delivery lock taken as late as an invocation runs has expired when its message is visible
    // again, so a copy received after the worker timed out does not find its dead sender's lock live.
    expect(parseInt(queues[1]!.args.visibilityTimeout)).toBeGreaterThanOrEqual(parseInt(hookWorker!.args[0].timeout) + DELIVERY_LEASE_MS / 1000);
    expect(linkNames(hookWorker!.args[0].link)).toEqual(["Main", "HookQueue"]);
    expect(Object.keys(unwrap(hookWorker!.args[0].environment))).toContain("FORGELINE_SECRET_KEY");
    expect(ofType("sst.aws.CronV2")).toHaveLength(workersOfKind(workers, "cron").length);
    // The stray-folder sweep reaches the table and the storages, nothing else.
    const sweep = ofType("sst.aws.CronV2").find((d) => d.name === "CronStraySweep")!;
    expect(linkNames(sweep.args.function.link)).toEqual(["Main"]);
    expect(sweep.args.function.volume).toBeDefined();
    expect(sweep.args.function.vpc).toBeDefined();
    expect(ofType("sst.aws.Function").filter((d) => d.name.startsWith("Task"))).toHaveLength(workersOfKind(workers, "task").length);
    for (const worker of workersOfKind(workers, "url")) {
      const fn = ofType("sst.aws.Function").find((d) => d.name === pascal(worker.name))!;
      expect(fn.args, worker.name).toMatchObject({ handler: `functions/${worker.module}.handler`, url: true });
      // A streamed function URL (Git over HTTP) reads the storages and may run up to Lambda's limit.
      if (worker.streaming) expect(fn.args).toMatchObject({ streaming: true, timeout: "900 seconds" });
      expect(linkNames(fn.args.link), worker.name).toEqual(linksOf(worker.module, "url"));
    }
  });

  it("deploys the state machine with task ARNs substituted, when the ASL exists", () => {
    const machines = ofType("aws.sfn.StateMachine");
    if (!existsSync("functions/moves/storage-move.asl.json")) return expect(machines).toHaveLength(0);
    expect(machines).toHaveLength(1);
    expect(unwrap(machines[0]!.args.definition)).not.toContain("${task:");
  });

  it("lets only the console's execution view read execution histories, and only of this machine's executions", () => {
    if (!existsSync("functions/moves/storage-move.asl.json")) return;
    const [machine] = ofType("aws.sfn.StateMachine");
    const executions = unwrap(machine!.resource.arn).replace(":stateMachine:", ":execution:");
    const linkables = Object.fromEntries(ofType("sst.Linkable").map((d) => [d.name, unwrap(d.args.include) as Array<{ actions: string[]; resources: string[] }>]));
    expect(linkables.StorageMoveHistory).toEqual([{ type: "aws.permission", actions: ["states:GetExecutionHistory"], resources: [`${executions}:*`, `${executions}/*`] }]);
    // No other link grants it; the machine's link keeps the actions it had.
    for (const [name, include] of Object.entries(linkables)) if (name !== "StorageMoveHistory") expect((include ?? []).flatMap((p) => p.actions), name).not.toContain("states:GetExecutionHistory");
    expect(linkables.StorageMoveMachine!.flatMap((p) => p.actions)).toEqual(["states:StartExecution", "states:DescribeExecution", "states:StopExecution", "states:ListExecutions"]);
    const [api] = ofType("sst.aws.ApiGatewayV2");
    const reading = api!.resource.calls.filter((c) => linkNames(c.args[1].link).includes("StorageMoveHistory")).map((c) => c.args[0]);
    expect(reading.sort()).toEqual(["GET /admin/storage_moves/{type}/{id}/details.json", "GET /admin/storage_moves/{type}/{id}/execution.json"]);
    expect(EXECUTION_HISTORY_MODULES).toEqual(["moves/http/console/execution", "moves/http/console/move"]);
    // The console's JSON only reads: none of it may start or stop an execution.
    const starting = api!.resource.calls.filter((c) => c.args[0].includes(" /admin/") && linkNames(c.args[1].link).includes("StorageMoveMachine")).map((c) => c.args[0]);
    expect(starting).toEqual([]);
    const everyOther = [...ofType("sst.aws.Function"), ...ofType("sst.aws.CronV2")].map((d) => linkNames(d.args.link ?? d.args.function?.link));
    expect(everyOther.filter((links) => links.includes("StorageMoveHistory"))).toEqual([]);
  });

  it("logs every state-machine execution with its data to CloudWatch Logs, and traces it in X-Ray", () => {
    if (!existsSync("functions/moves/storage-move.asl.json")) return;
    const [machine] = ofType("aws.sfn.StateMachine");
    const logGroup = ofType("aws.cloudwatch.LogGroup").find((d) => d.name === "StorageMoveLogs")!;
    expect(machine!.args.loggingConfiguration).toMatchObject({ level: "ALL", includeExecutionData: true });
    expect(unwrap(machine!.args.loggingConfiguration.logDestination)).toBe(`${unwrap(logGroup.resource.arn)}:*`);
    expect(machine!.args.tracingConfiguration).toEqual({ enabled: true });
    const policies = ofType("aws.iam.RolePolicy").map((d) => JSON.stringify(unwrap(d.args.policy))).join();
    for (const action of ["logs:CreateLogDelivery", "xray:PutTraceSegments"]) expect(policies).toContain(action);
  });

  it("gives every log group a retention: each function's, the API's access log, the state machine's", () => {
    const functionArgs = everyFunctionArgs();
    expect(functionArgs).toHaveLength(routes.length + workers.length);
    for (const fn of functionArgs) expect(fn.logging?.retention, fn.handler).toBe("1 month");
    expect(ofType("sst.aws.ApiGatewayV2")[0]!.args.accessLog?.retention).toBe("1 month");
    const logGroups = ofType("aws.cloudwatch.LogGroup");
    expect(logGroups.length).toBe(existsSync("functions/moves/storage-move.asl.json") ? 1 : 0);
    for (const g of logGroups) expect(g.args.retentionInDays, g.name).toBe(30);
  });

  it("alarms on the SNS topic it outputs: dead-lettered events and hook deliveries, failed or timed-out moves, API and ingest 5xx", () => {
    const [topic] = ofType("sst.aws.SnsTopic");
    expect(unwrap(outputs.alarms)).toBe(unwrap(topic!.resource.arn));
    const alarms = ofType("aws.cloudwatch.MetricAlarm").map((d) => ({ ...unwrap(d.args), name: d.name }));
    for (const alarm of alarms) {
      expect(alarm.alarmActions, alarm.name).toEqual([unwrap(topic!.resource.arn)]);
      expect(alarm.threshold, alarm.name).toBe(1);
    }
    const watched = alarms.map((a) => `${a.namespace} ${a.metricName}`).sort();
    const machine = existsSync("functions/moves/storage-move.asl.json");
    expect(watched).toEqual(
      [
        "AWS/ApiGateway 5xx",
        "AWS/Lambda Url5xxCount",
        "AWS/SQS ApproximateNumberOfMessagesVisible",
        "AWS/SQS ApproximateNumberOfMessagesVisible",
        ...(machine ? ["AWS/States ExecutionsFailed", "AWS/States ExecutionsTimedOut"] : []),
      ].sort(),
    );
    const deadLetterQueues = alarms.filter((a) => a.namespace === "AWS/SQS").map((a) => a.dimensions.QueueName);
    expect(deadLetterQueues.sort()).toEqual(["HookDlq.example", "IngestDlq.example"]);
    expect(alarms.find((a) => a.metricName === "5xx")!.dimensions).toEqual({ ApiId: "Api-api-id" });
  });

  it("returns the outputs", () => {
    expect(Object.keys(outputs)).toEqual(["api", "ingest", "git", "table", "queue", "stateMachine", "alarms"]);
    expect(unwrap(outputs.api)).toMatch(/^https:/);
  });
});
