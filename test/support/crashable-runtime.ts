/**
 * Starts the runtime of the crash tests (`crash-runtime.ts`) on a data folder, in a process group of
 * its own, and kills that whole group (stand-ins included) with SIGKILL, as a crash would. Each start
 * on the same folder is the runtime's next incarnation.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import { expect } from "vitest";
import { groupMembers, until } from "./processes.js";

const root = resolve(import.meta.dirname, "../..");

export interface CrashableRuntime {
  client: { baseUrl: string; token: string };
  /** The process group of the runtime, its stand-ins and the git it runs. */
  pgid: number;
  /** Makes that fault-injection point freeze forever. */
  arm(point: string, phase: string): Promise<void>;
  /** Resolves once the armed point froze. */
  frozen(): Promise<void>;
  /** SIGSTOPs the whole group, so what is on disk holds still until the kill. */
  freeze(): void;
  /** SIGKILLs the runtime's whole process group and waits until every member is gone. */
  kill(): Promise<void>;
}

export async function startCrashableRuntime(dataDir: string, opts: { token: string; env?: Record<string, string>; config?: Record<string, unknown> }): Promise<CrashableRuntime> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", join(root, "test", "support", "crash-runtime.ts")], {
    cwd: root,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, CRASH_DATA_DIR: dataDir, CRASH_TOKEN: opts.token, CRASH_CONFIG: JSON.stringify(opts.config ?? {}), LOG_LEVEL: "error", ...opts.env },
  });
  let output = "";
  const waiters: Array<{ prefix: string; ok: (line: string) => void }> = [];
  const seen = (prefix: string) =>
    new Promise<string>((ok, fail) => {
      const line = output.split("\n").find((l) => l.startsWith(prefix));
      if (line) return ok(line);
      waiters.push({ prefix, ok });
      child.once("exit", () => fail(new Error(`the runtime exited before "${prefix}":\n${output}`)));
    });
  child.stdout!.on("data", (d) => {
    output += d;
    for (const line of output.split("\n")) for (const w of waiters.filter((x) => line.startsWith(x.prefix))) w.ok(line);
  });
  child.stderr!.on("data", (d) => (output += d));
  const ready = await seen("READY ");
  return {
    client: { baseUrl: ready.slice("READY ".length).trim(), token: opts.token },
    pgid: child.pid!,
    async arm(point, phase) {
      child.stdin!.write(`ARM ${point} ${phase}\n`);
      await seen("ARMED");
    },
    frozen: () => seen("FROZEN ").then(() => undefined),
    freeze: () => process.kill(-child.pid!, "SIGSTOP"),
    async kill() {
      process.kill(-child.pid!, "SIGKILL");
      expect(await until(() => groupMembers(child.pid!).length === 0, 60_000)).toBe(true);
    },
  };
}
