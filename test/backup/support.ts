/**
 * Backup tests run on PRIVATE persistent runtimes (their own temporary data folders, one at a time
 * in this process), never on the shared test runtime: restore deletes whole instances. The CLIs run
 * as real child processes that join the runtime through its `runtime.json`, as an operator's
 * `npm run backup` joins `npm start`.
 */
import { INCARNATION_KEY } from "../../functions/platform/leases.js";
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { defaultLocalConfig, startRuntime, type Runtime } from "../../local/runtime.js";
import { encodeItem, scanTable, type RawItem } from "../../functions/backup/table-io.js";

const ROOT = resolve(import.meta.dirname, "../..");

export interface Client {
  baseUrl: string;
  token: string;
}

export interface PrivateRuntime extends Client {
  runtime: Runtime;
  dataDir: string;
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

/** Variables a runtime sets; cleared so the next private runtime (or a CLI) starts from nothing. */
const RUNTIME_ENV = /^(AWS_|SST_RESOURCE_|FORGELINE_)/;

function clearRuntimeEnv(): void {
  for (const key of Object.keys(process.env)) if (RUNTIME_ENV.test(key)) delete process.env[key];
}

export async function privateRuntime(token: string, dataDir = mkdtempSync(join(tmpdir(), "forgeline-backup-"))): Promise<PrivateRuntime> {
  clearRuntimeEnv();
  process.env.LOG_LEVEL = "warn";
  process.env.FORGELINE_LOCAL_WAIT_OVERRIDES = JSON.stringify({ WaitForWritesToDrain: 50 });
  // No cron timers: a scheduled run writing at 5 s would race the item-for-item comparisons here.
  const runtime = await startRuntime({ dataDir, persistent: true, config: defaultLocalConfig(dataDir), bootstrapToken: token, crons: false });
  return {
    runtime,
    dataDir,
    baseUrl: runtime.baseUrl,
    token,
    async stop(opts = {}) {
      await runtime.stop();
      if (!opts.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A command's process on the data folder as an operator starts it in a fresh shell: the child gets
 * none of this process's runtime variables, only FORGELINE_DATA_DIR (and the config) and `env`.
 */
export function spawnOnFolder(script: string, args: string[], dataDir: string, env: NodeJS.ProcessEnv = {}): ChildProcessByStdio<null, Readable, Readable> {
  const clean: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !RUNTIME_ENV.test(k)));
  clean.FORGELINE_DATA_DIR = dataDir;
  clean.FORGELINE_CONFIG_JSON = JSON.stringify(defaultLocalConfig(dataDir));
  clean.LOG_LEVEL = "warn";
  // One process (node with tsx's loader, not the tsx wrapper that starts another): a kill reaches the command itself.
  return spawn(process.execPath, ["--import", "tsx", resolve(ROOT, script), ...args], { cwd: ROOT, env: { ...clean, ...env }, stdio: ["ignore", "pipe", "pipe"] });
}

/** `npm run <script> -- args`, to its end. */
export function cli(script: "backup" | "restore" | "inventory", args: string[], dataDir: string): Promise<CliResult> {
  return new Promise((ok, fail) => {
    const child = spawnOnFolder(`scripts/${script}.ts`, args, dataDir);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => ok({ code: code ?? -1, stdout, stderr }));
  });
}

export interface Answer {
  status: number;
  body: any;
  text: string;
}

export async function call(client: Client, method: string, path: string, body?: unknown, token: string | null = client.token): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token) headers["Private-Token"] = token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${client.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* raw file contents */
  }
  return { status: res.status, body: parsed, text };
}

/** Like `call`, but fails loudly unless the answer is the expected status. */
export async function ok(client: Client, method: string, path: string, body?: unknown, status = method === "POST" ? 201 : 200): Promise<any> {
  const res = await call(client, method, path, body);
  if (res.status !== status) throw new Error(`${method} ${path} → ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

/** Runs `fn` over `items`, `limit` at a time. */
export async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** JSON with object keys sorted, so two equal items print equally whatever attribute order DynamoDB returns. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));

/** Every table item of the runtime this process is attached to, as sorted canonical lines. */
export async function tableLines(): Promise<string[]> {
  const items: RawItem[] = [];
  await scanTable((page) => void items.push(...page));
  // The local runtime's incarnation counter belongs to the installation, not the instance: never archived.
  return items.filter((i) => i.pk?.S !== INCARNATION_KEY.pk).map((i) => canonical(JSON.parse(encodeItem(i)))).sort();
}
