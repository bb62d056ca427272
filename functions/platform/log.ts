/**
 * Structured JSON logs. Every line carries the request id of the request (or queue message, or
 * state-machine task) being served, taken from an AsyncLocalStorage scope opened by the adapters.
 * Never pass tokens, DSN secrets or request bodies in `fields`.
 */
import { AsyncLocalStorage } from "node:async_hooks";

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const scope = new AsyncLocalStorage<{ requestId: string }>();

function threshold(): number {
  const wanted = (process.env.LOG_LEVEL ?? "info").toLowerCase() as Level;
  return order[wanted] ?? order.info;
}

function write(level: Level, msg: string, fields?: Record<string, unknown>): void {
  if (order[level] < threshold()) return;
  const line = JSON.stringify({
    level,
    time: new Date().toISOString(),
    requestId: scope.getStore()?.requestId,
    msg,
    ...fields,
  });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
};

export function withRequestId<T>(requestId: string, fn: () => T): T {
  return scope.run({ requestId }, fn);
}

/** The request (or message, or task) being served, when there is one. */
export const currentRequestId = (): string | undefined => scope.getStore()?.requestId;

/** A serialisable summary of an unknown error, without its message when it may hold secrets. */
export function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { error: err.name, message: err.message, stack: err.stack };
  return { error: String(err) };
}
