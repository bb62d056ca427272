/** Stopping a stand-in's child process: ask it to exit, and kill it if it has not within 5 s. */
import type { ChildProcess } from "node:child_process";

export function stopChild(child: ChildProcess, ask: () => void): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    ask();
  });
}
