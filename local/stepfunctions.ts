/**
 * Step Functions stand-in: a loopback HTTP server that speaks the Step Functions JSON protocol
 * (StartExecution, DescribeExecution, ListExecutions, StopExecution, GetExecutionHistory) so the
 * application and `aws stepfunctions …` call it
 * through `@aws-sdk/client-sfn` exactly as it calls AWS. Executions run the project's own ASL with
 * `aws-local-stepfunctions` (JSONPath only, like the definition we deploy); each Task state whose
 * `Resource` is `${task:<worker>}` runs that worker's Lambda `handler` in-process.
 *
 * Executions are recorded in the data folder; one still RUNNING when the runtime stopped is started
 * again from the beginning on the next start, so task handlers must be idempotent (they are: each
 * step checks the move's recorded state first). Each execution's events (`history.ts`) are appended
 * to `history/<name>.ndjson` as they happen; a restarted run continues the same history after an
 * `ExecutionRedriven` event.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { historyEvents, withoutData, type HistoryEvent } from "./history.js";
import { describeError, log } from "../functions/platform/log.js";
import { randomUUID } from "node:crypto";

if (!(Promise as unknown as { withResolvers?: unknown }).withResolvers) {
  // Node 20 lacks Promise.withResolvers, which aws-local-stepfunctions uses.
  (Promise as unknown as { withResolvers: () => unknown }).withResolvers = function withResolvers<T>() {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };
}
const { StateMachine } = await import("aws-local-stepfunctions");

export type TaskHandler = (input: unknown) => Promise<unknown>;

export interface MachineRegistration {
  name: string;
  /** ASL with `${task:<worker>}` placeholders. */
  definition: Record<string, unknown>;
  tasks: Record<string, TaskHandler>;
  /** Shorten `Wait` states locally (state name → ms); never used on AWS. */
  waitOverrides?: Record<string, number>;
}

interface Execution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: "RUNNING" | "SUCCEEDED" | "FAILED" | "ABORTED" | "TIMED_OUT";
  startDate: number;
  stopDate?: number;
  input: string;
  output?: string;
  error?: string;
  cause?: string;
}

const REGION = "us-east-1";
const ACCOUNT = "000000000000";
export const machineArn = (name: string) => `arn:aws:states:${REGION}:${ACCOUNT}:stateMachine:${name}`;

export interface StepFunctionsStandIn {
  endpoint: string;
  register(machine: MachineRegistration): string;
  /** Resolves when no execution is running (used by tests and a clean shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Task state name → handler, for every Task (also inside Map/Parallel) whose Resource names a worker. */
function localHandlers(def: Record<string, unknown>, tasks: Record<string, TaskHandler>): Record<string, TaskHandler> {
  const out: Record<string, TaskHandler> = {};
  const states = (def.States ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, state] of Object.entries(states)) {
    const resource = typeof state.Resource === "string" ? /^\$\{task:([A-Za-z0-9_-]+)\}$/.exec(state.Resource) : null;
    if (state.Type === "Task" && resource?.[1]) {
      const handler = tasks[resource[1]];
      if (!handler) throw new Error(`State ${name} uses task ${resource[1]}, which has no local handler`);
      out[name] = handler;
    }
    for (const nested of [state.Iterator, state.ItemProcessor, ...((state.Branches as unknown[]) ?? [])]) {
      if (nested && typeof nested === "object") Object.assign(out, localHandlers(nested as Record<string, unknown>, tasks));
    }
  }
  return out;
}

/** The same substitution `stacks/jobs.ts` makes with real Lambda ARNs. */
function substitute(def: Record<string, unknown>): Record<string, unknown> {
  const text = JSON.stringify(def).replace(/\$\{task:([A-Za-z0-9_-]+)\}/g, `arn:aws:lambda:${REGION}:${ACCOUNT}:function:$1`);
  return JSON.parse(text) as Record<string, unknown>;
}

export async function startStepFunctions(opts: { port: number; stateFile?: string }): Promise<StepFunctionsStandIn> {
  // Validated and compiled once at registration (validation compiles a JSON schema: ~100 ms), then run per execution.
  const machines = new Map<string, { machine: MachineRegistration; sm: InstanceType<typeof StateMachine>; handlers: Record<string, TaskHandler> }>();
  const executions = new Map<string, Execution>();
  const running = new Map<string, { abort: () => void; done: Promise<void> }>();
  // Events of executions run by this process; older ones are read from their file when asked for.
  const histories = new Map<string, HistoryEvent[]>();
  const historyFile = (exec: Execution) => opts.stateFile && join(dirname(opts.stateFile), "history", `${exec.name}.ndjson`);
  const historyOf = (exec: Execution): HistoryEvent[] => {
    const kept = histories.get(exec.executionArn);
    if (kept) return kept;
    const file = historyFile(exec);
    if (!file || !existsSync(file)) return [];
    return readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as HistoryEvent);
  };
  let stopping = false;
  if (opts.stateFile && existsSync(opts.stateFile)) {
    for (const e of JSON.parse(readFileSync(opts.stateFile, "utf8")) as Execution[]) executions.set(e.executionArn, e);
  }
  const persist = () => {
    if (!opts.stateFile) return;
    mkdirSync(dirname(opts.stateFile), { recursive: true });
    writeFileSync(opts.stateFile + ".tmp", JSON.stringify([...executions.values()]));
    renameSync(opts.stateFile + ".tmp", opts.stateFile);
  };

  const launch = (exec: Execution) => {
    const machineName = exec.stateMachineArn.split(":").pop()!;
    const { machine, sm, handlers } = machines.get(machineName)!;
    const run = sm.run(JSON.parse(exec.input), {
      overrides: { taskResourceLocalHandlers: handlers as never, waitTimeOverrides: machine.waitOverrides },
      context: { Execution: { Id: exec.executionArn, Name: exec.name, StartTime: new Date(exec.startDate * 1000).toISOString() } } as never,
    });
    const events = historyOf(exec);
    histories.set(exec.executionArn, events);
    const file = historyFile(exec);
    if (file) mkdirSync(dirname(file), { recursive: true });
    const recording = (async () => {
      for await (const logged of run.eventLogs) {
        // The aborts of a stopping runtime are not the execution's: it resumes on the next start.
        if (stopping) continue;
        for (const event of historyEvents(logged, events)) {
          events.push(event);
          if (file) appendFileSync(file, JSON.stringify(event) + "\n");
        }
      }
    })().catch((err: unknown) => {
      // A history that cannot be written must not take the execution (or the runtime) down with it.
      log.error("execution history not recorded", { execution: exec.name, ...describeError(err) });
    });
    const done = run.result.then(
      (output) => Object.assign(exec, { status: "SUCCEEDED", output: JSON.stringify(output) }),
      (err: Error & { cause?: unknown }) => {
        const aborted = err?.name === "ExecutionAbortedError";
        const inner = (err as { cause?: { name?: string; message?: string } }).cause;
        Object.assign(exec, {
          status: aborted ? "ABORTED" : err?.name === "ExecutionTimeoutError" ? "TIMED_OUT" : "FAILED",
          error: inner?.name ?? err?.name,
          cause: inner?.message ?? err?.message,
        });
      },
    ).then(async () => {
      exec.stopDate = Date.now() / 1000;
      await recording;
      running.delete(exec.executionArn);
      if (file) histories.delete(exec.executionArn);
      persist();
    });
    running.set(exec.executionArn, { abort: run.abort, done });
  };

  const executionOf = (body: Record<string, unknown>) => {
    const exec = executions.get(String(body.executionArn));
    if (!exec) throw fault("ExecutionDoesNotExist", `Execution Does Not Exist: '${String(body.executionArn)}'`);
    return exec;
  };

  const actions: Record<string, (body: Record<string, unknown>) => unknown> = {
    StartExecution(body) {
      const arn = String(body.stateMachineArn ?? "");
      const machineName = arn.split(":").pop() ?? "";
      if (!machines.has(machineName)) throw fault("StateMachineDoesNotExist", `State Machine Does Not Exist: '${arn}'`);
      const name = String(body.name ?? randomUUID());
      const executionArn = `arn:aws:states:${REGION}:${ACCOUNT}:execution:${machineName}:${name}`;
      if (executions.has(executionArn)) throw fault("ExecutionAlreadyExists", `Execution Already Exists: '${executionArn}'`);
      const exec: Execution = { executionArn, stateMachineArn: arn, name, status: "RUNNING", startDate: Date.now() / 1000, input: String(body.input ?? "{}") };
      executions.set(executionArn, exec);
      persist();
      launch(exec);
      return { executionArn, startDate: exec.startDate };
    },
    DescribeExecution(body) {
      const exec = executionOf(body);
      return { ...exec, inputDetails: { included: true }, ...(exec.output !== undefined ? { outputDetails: { included: true } } : {}) };
    },
    /** AWS's paging: `maxResults` (100 by default, at most 1000), an opaque `nextToken`, `reverseOrder`, `includeExecutionData`. */
    GetExecutionHistory(body) {
      const all = historyOf(executionOf(body));
      const ordered = body.reverseOrder === true ? [...all].reverse() : all;
      const max = Math.min(1000, Math.max(1, Number(body.maxResults) || 100));
      const from = body.nextToken ? Number(Buffer.from(String(body.nextToken), "base64url").toString()) : 0;
      if (!Number.isInteger(from) || from < 0 || from > ordered.length) throw fault("InvalidToken", "Invalid Token");
      const page = ordered.slice(from, from + max).map((e) => (body.includeExecutionData === false ? withoutData(e) : e));
      const next = from + max < ordered.length ? Buffer.from(String(from + max)).toString("base64url") : undefined;
      return { events: page, ...(next ? { nextToken: next } : {}) };
    },
    ListExecutions(body) {
      const list = [...executions.values()]
        .filter((e) => e.stateMachineArn === body.stateMachineArn && (!body.statusFilter || e.status === body.statusFilter))
        .sort((a, b) => b.startDate - a.startDate)
        .slice(0, Number(body.maxResults ?? 100))
        .map(({ executionArn, stateMachineArn, name, status, startDate, stopDate }) => ({ executionArn, stateMachineArn, name, status, startDate, stopDate }));
      return { executions: list };
    },
    StopExecution(body) {
      running.get(String(body.executionArn))?.abort();
      return { stopDate: Date.now() / 1000 };
    },
  };

  const server: Server = createServer(async (req, res) => {
    const target = String(req.headers["x-amz-target"] ?? "").split(".").pop() ?? "";
    try {
      const body = JSON.parse((await readAll(req)) || "{}") as Record<string, unknown>;
      const action = actions[target];
      if (!action) throw fault("UnknownOperationException", `Unsupported operation ${target}`);
      reply(res, 200, action(body));
    } catch (err) {
      const f = err as { type?: string; message?: string };
      reply(res, 400, { __type: f.type ?? "InvalidInput", message: f.message ?? "Invalid request" });
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port, "127.0.0.1", resolve));

  return {
    endpoint: `http://127.0.0.1:${opts.port}`,
    register(machine) {
      const sm = new StateMachine(substitute(machine.definition) as never, { validationOptions: { checkArn: false } });
      machines.set(machine.name, { machine, sm, handlers: localHandlers(machine.definition, machine.tasks) });
      // Resume executions that were running when the previous runtime stopped.
      for (const exec of executions.values()) {
        if (exec.status === "RUNNING" && exec.stateMachineArn === machineArn(machine.name) && !running.has(exec.executionArn)) launch(exec);
      }
      return machineArn(machine.name);
    },
    async idle() {
      while (running.size) await Promise.all([...running.values()].map((r) => r.done));
    },
    async stop() {
      stopping = true;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Running executions stay RUNNING in the state file and resume on the next start.
      const interrupted = [...running.keys()];
      const pending = [...running.values()];
      for (const r of pending) r.abort();
      await Promise.allSettled(pending.map((r) => r.done));
      for (const arn of interrupted) Object.assign(executions.get(arn)!, { status: "RUNNING", stopDate: undefined, error: undefined, cause: undefined });
      persist();
    },
  };
}

function fault(type: string, message: string) {
  return Object.assign(new Error(message), { type });
}

function reply(res: import("node:http").ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/x-amz-json-1.0" });
  res.end(JSON.stringify(body));
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (data += d));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}
