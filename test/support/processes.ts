/** Process helpers for tests that start, signal and kill the runtime and its stand-ins. */
import { execFileSync } from "node:child_process";

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it holds or `ms` have passed; returns its last answer. */
export async function until(check: () => boolean, ms = 15_000): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) if (check()) return true;
  return check();
}

/** SIGKILLs `pid` and waits until it is gone. */
export async function killed(pid: number): Promise<void> {
  process.kill(pid, "SIGKILL");
  await until(() => !alive(pid), 60_000);
}

/** Pids of every process in a process group. */
export function groupMembers(pgid: number): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,pgid="], { encoding: "utf8" });
  return out
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, group]) => group === pgid)
    .map(([pid]) => pid!);
}
