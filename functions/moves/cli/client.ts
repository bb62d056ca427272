/**
 * The operator CLI's view of the API: plain HTTP with a personal access token, so the same commands
 * work against `npm start` and a deployed instance.
 *   FORGELINE_URL   (default http://127.0.0.1:$FORGELINE_PORT, port 3000)
 *   FORGELINE_TOKEN (default: the `initial_root_token` file `npm start` writes into the data folder)
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../../platform/config.js";

export interface MoveRecordView {
  id: number;
  state: string;
  source_storage_name: string;
  destination_storage_name: string;
  error_message: string | null;
  created_at: string;
  [container: string]: unknown;
}

export class CliError extends Error {}

export interface Api {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
  put<T>(path: string, body: unknown): Promise<T>;
}

export function connect(env: NodeJS.ProcessEnv = process.env): Api {
  const base = (env.FORGELINE_URL ?? `http://127.0.0.1:${env.FORGELINE_PORT ?? 3000}`).replace(/\/$/, "");
  const tokenFile = join(dataDir(), "initial_root_token");
  const token = env.FORGELINE_TOKEN ?? (existsSync(tokenFile) ? readFileSync(tokenFile, "utf8").trim() : undefined);
  const send = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    // Said at the first request, not before: `--help` and usage errors need no token.
    if (!token) throw new CliError(`No token: set FORGELINE_TOKEN to an administrator's personal access token.`);
    const res = await fetch(`${base}/api/v4${path}`, {
      method,
      headers: { "Private-Token": token, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((err: Error) => {
      throw new CliError(`Cannot reach ${base}: ${err.message}`);
    });
    const text = await res.text();
    if (!res.ok) throw new CliError(`${method} ${path} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return { get: (path) => send("GET", path), post: (path, body) => send("POST", path, body), put: (path, body) => send("PUT", path, body) };
}

/** Moves of a kind newer than `sinceId`, newest first (pages until it reaches older ones). */
export async function movesSince(api: Api, kind: string, sinceId: number): Promise<MoveRecordView[]> {
  const out: MoveRecordView[] = [];
  for (let page = 1; ; page++) {
    const batch = await api.get<MoveRecordView[]>(`/${kind}_repository_storage_moves?per_page=100&page=${page}`);
    const newer = batch.filter((m) => m.id > sinceId);
    out.push(...newer);
    if (batch.length < 100 || newer.length < batch.length) return out;
  }
}

export async function latestMoveId(api: Api, kind: string): Promise<number> {
  const [latest] = await api.get<MoveRecordView[]>(`/${kind}_repository_storage_moves?per_page=1`);
  return latest?.id ?? 0;
}

/** How many repositories of each kind a storage still holds (`GET /repository_storages/inventory`). */
export async function remainingOn(api: Api, storage: string): Promise<Record<string, number>> {
  const rows = await api.get<Array<{ name: string; projects: { count: number }; snippets: { count: number }; group_wikis: { count: number } }>>(
    "/repository_storages/inventory",
  );
  const row = rows.find((r) => r.name === storage);
  if (!row) throw new CliError(`Unknown storage ${storage}; configured: ${rows.map((r) => r.name).join(", ")}`);
  return { project: row.projects.count, snippet: row.snippets.count, group: row.group_wikis.count };
}
