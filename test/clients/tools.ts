/**
 * The other languages' clients come from the machine's packages (Debian's here; `.ci/run` installs
 * them before `npm run test:clients`). A missing one fails its suite with the one command that
 * installs it, never a skip.
 */
import { spawnSync } from "node:child_process";

export function requireTool(command: string, probeArgs: string[], install: string): void {
  const probe = spawnSync(command, probeArgs, { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    throw new Error(`This suite drives a real client that is not installed here (${command} ${probeArgs.join(" ")} failed). Install it: ${install}`);
  }
}

/** Debian's Python, where python3-gitlab and python3-sentry-sdk install (not a pyenv or venv one). */
export const DEBIAN_PYTHON = "/usr/bin/python3";
