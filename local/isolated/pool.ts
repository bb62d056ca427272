/**
 * Execution environments for isolated mode, the way Lambda keeps them: a function's first invocation
 * starts a new process (`host.mjs`, a cold start), later ones reuse an idle one (warm), a process
 * serves one invocation at a time (a concurrent one starts another, up to `maxPerFunction`), and a
 * process idle for `idleMs` is recycled. `maxProcesses` bounds the whole machine: past it, the least
 * recently used idle process is recycled first. An invocation that outlives the function's timeout
 * ends its process, as Lambda does.
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { stopChild } from "../child.js";

const HOST = resolve(import.meta.dirname, "host.mjs");

export interface FunctionDefinition {
  name: string;
  /** The bundle's `index.mjs`. */
  bundle: string;
  /** The environment a new process gets, evaluated at each cold start (links resolved then). */
  env: () => Record<string, string>;
  timeoutMs: number;
}

export interface PoolOptions {
  idleMs: number;
  maxProcesses: number;
  maxPerFunction: number;
}

/**
 * What Lambda reports for a failed invocation: `name` is its `errorType` (the thrown error's name,
 * which Step Functions' Retry and Catch match; `Runtime.ExitError` when the process died,
 * `Sandbox.Timedout` when the time ran out).
 */
export class InvocationError extends Error {
  constructor(
    readonly functionName: string,
    errorType: string,
    message: string,
    readonly trace: string[] = [],
  ) {
    super(message);
    this.name = errorType;
  }
}

/**
 * Lambda runs a deployed function without `--enable-source-maps` (`stacks/` sets no NODE_OPTIONS, and
 * SST leaves the maps out of the package), so its stack traces name minified code. Isolated mode does
 * the same by default: reading and parsing a map costs a cold start 20–50 ms, which would skew the
 * cold starts it measures. `FORGELINE_ISOLATED_SOURCE_MAPS=1` maps traces to the sources, for debugging.
 */
const SOURCE_MAPS = process.env.FORGELINE_ISOLATED_SOURCE_MAPS === "1";

export interface ColdStart {
  function: string;
  /** Process start → bundle imported (Lambda's Init Duration). */
  initMs: number;
  /** Process start → first invocation answered. */
  firstResponseMs: number;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

interface Instance {
  fn: FunctionDefinition;
  child: ChildProcess;
  ready: Promise<number>;
  busy: boolean;
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
  pending?: Pending & { id: string };
  startedAt: number;
  answered: boolean;
}

export class FunctionPool {
  private readonly instances = new Set<Instance>();
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly coldStartLog: ColdStart[] = [];
  private stopping = false;

  constructor(private readonly opts: PoolOptions) {}

  /** Runs one invocation of `fn` and returns the handler's result (an `InvocationError` if it failed). */
  async invoke(fn: FunctionDefinition, event: unknown): Promise<unknown> {
    const instance = await this.acquire(fn);
    try {
      return await this.run(instance, event);
    } finally {
      this.release(instance);
    }
  }

  /**
   * Lambda's init phase alone, as provisioned concurrency runs it: an environment imports the
   * bundle (or an idle one is taken) and is left idle. Resolves with the import's duration.
   */
  async initialise(fn: FunctionDefinition): Promise<number> {
    const instance = await this.acquire(fn);
    try {
      return await instance.ready;
    } finally {
      this.release(instance);
    }
  }

  /** Every cold start so far, in order. */
  coldStarts(): readonly ColdStart[] {
    return this.coldStartLog;
  }

  /** Processes alive now, per function. */
  live(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const i of this.instances) out[i.fn.name] = (out[i.fn.name] ?? 0) + 1;
    return out;
  }

  /** Ends every process of `name` (the next invocation is a cold start again). */
  async recycle(name?: string): Promise<void> {
    await Promise.all([...this.instances].filter((i) => name === undefined || i.fn.name === name).map((i) => this.end(i)));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.recycle();
  }

  private async acquire(fn: FunctionDefinition): Promise<Instance> {
    for (;;) {
      if (this.stopping) throw new InvocationError(fn.name, "Runtime.Stopped", "the local runtime is stopping");
      const mine = [...this.instances].filter((i) => i.fn.name === fn.name);
      const idle = mine.find((i) => !i.busy);
      if (idle) {
        idle.busy = true;
        clearTimeout(idle.idleTimer);
        return idle;
      }
      if (mine.length < this.opts.maxPerFunction) return this.spawn(fn);
      await new Promise<void>((wake) => this.waiting.set(fn.name, [...(this.waiting.get(fn.name) ?? []), wake]));
    }
  }

  private release(instance: Instance) {
    instance.busy = false;
    instance.lastUsed = Date.now();
    if (!this.instances.has(instance)) return this.wake(instance.fn.name);
    instance.idleTimer = setTimeout(() => void this.end(instance), this.opts.idleMs);
    instance.idleTimer.unref();
    this.wake(instance.fn.name);
  }

  private wake(name: string) {
    const next = this.waiting.get(name)?.shift();
    next?.();
  }

  private spawn(fn: FunctionDefinition): Instance {
    this.makeRoom();
    const startedAt = performance.now();
    const child = fork(HOST, [fn.bundle, fn.name], {
      env: fn.env(),
      cwd: resolve(fn.bundle, ".."),
      execArgv: SOURCE_MAPS ? ["--enable-source-maps"] : [],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const instance: Instance = { fn, child, busy: true, lastUsed: Date.now(), startedAt, answered: false, ready: Promise.resolve(0) };
    instance.ready = new Promise<number>((ready, fail) => {
      child.on("message", (msg: HostMessage) => {
        if (msg.type === "ready") ready(msg.initMs);
        else if (msg.type === "init-error") fail(new InvocationError(fn.name, "Runtime.ImportModuleError", msg.error.errorMessage, msg.error.trace));
        else if ((msg.type === "result" || msg.type === "error") && instance.pending?.id === msg.id) {
          const { resolve: done, reject, timer } = instance.pending;
          clearTimeout(timer);
          instance.pending = undefined;
          if (msg.type === "result") done(msg.result);
          else reject(new InvocationError(fn.name, msg.error.errorType, msg.error.errorMessage, msg.error.trace));
        }
      });
      child.on("exit", (code, signal) => {
        this.instances.delete(instance);
        clearTimeout(instance.idleTimer);
        const err = new InvocationError(fn.name, "Runtime.ExitError", `process exited (${signal ?? `code ${code}`})`);
        fail(err);
        if (instance.pending) {
          clearTimeout(instance.pending.timer);
          instance.pending.reject(err);
          instance.pending = undefined;
        }
        this.wake(fn.name);
      });
    });
    instance.ready.catch(() => undefined);
    this.instances.add(instance);
    return instance;
  }

  private async run(instance: Instance, event: unknown): Promise<unknown> {
    const initMs = await instance.ready;
    const id = randomUUID();
    const answered = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new InvocationError(instance.fn.name, "Sandbox.Timedout", `Task timed out after ${(instance.fn.timeoutMs / 1000).toFixed(2)} seconds`));
        instance.pending = undefined;
        void this.end(instance);
      }, instance.fn.timeoutMs);
      instance.pending = { id, resolve, reject, timer };
      instance.child.send({ type: "invoke", id, requestId: randomUUID(), event, timeoutMs: instance.fn.timeoutMs });
    });
    try {
      return await answered;
    } finally {
      // An error is an answer too: the cold start ends with the first invocation, whatever it returned.
      if (!instance.answered) {
        instance.answered = true;
        this.coldStartLog.push({ function: instance.fn.name, initMs, firstResponseMs: performance.now() - instance.startedAt });
      }
    }
  }

  /** Past `maxProcesses`, recycle the least recently used idle process. */
  private makeRoom() {
    if (this.instances.size < this.opts.maxProcesses) return;
    const idle = [...this.instances].filter((i) => !i.busy).sort((a, b) => a.lastUsed - b.lastUsed)[0];
    if (idle) void this.end(idle);
  }

  private end(instance: Instance): Promise<void> {
    clearTimeout(instance.idleTimer);
    this.instances.delete(instance);
    const { child } = instance;
    // Closing the channel ends the host (it exits on disconnect); a stuck one is killed.
    return stopChild(child, () => (child.connected ? child.disconnect() : child.kill("SIGTERM")));
  }
}

type HostError = { errorType: string; errorMessage: string; trace: string[] };
type HostMessage =
  | { type: "ready"; initMs: number }
  | { type: "init-error"; error: HostError }
  | { type: "result"; id: string; result: unknown }
  | { type: "error"; id: string; error: HostError };
