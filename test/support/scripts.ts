/**
 * The operator commands as an operator runs them: `scripts/<name>.ts` in a process of its own (what
 * `npm start` / `npm run <name>` execute), with the environment a test gives it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import { RUNTIME_ENV } from "../../local/instance-lock.js";

const root = resolve(import.meta.dirname, "../..");

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/<script>.ts` to its end. `npm_lifecycle_event` is set as npm sets it. */
export function runScript(script: string, env: Record<string, string | undefined>, args: string[] = []): Promise<Finished> {
  const child = spawnScript(script, env, args);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((ok) => child.once("close", (code) => ok({ code, stdout, stderr })));
}

/**
 * `npm start` in its own process group, as a terminal gives a foreground job; resolves once it
 * serves (or rejects with what it printed if it ends first).
 */
export async function startScript(env: Record<string, string | undefined>): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  const child = spawnScript("start", env, [], true);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((ok) => child.once("exit", (code) => ok(code)));
  await new Promise<void>((ok, fail) => {
    child.stdout!.on("data", () => output.includes("Press Ctrl-C") && ok());
    child.once("exit", () => fail(new Error(`npm start exited:\n${output}`)));
  });
  return { child, output: () => output, exited };
}

function spawnScript(script: string, env: Record<string, string | undefined>, args: string[], detached = false): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", join(root, "scripts", `${script}.ts`), ...args], {
    cwd: root,
    detached,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...operatorEnvironment(), npm_lifecycle_event: script, ...env },
  });
}

/**
 * The test worker's environment without the shared test runtime's endpoints and links: a command
 * started here finds its instance as an operator's would, from its data folder.
 */
function operatorEnvironment(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !RUNTIME_ENV.test(k)));
}
