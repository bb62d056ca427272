/**
 * Helpers for the storage-move tests. Every helper takes a `Client` (base URL + admin token), so the
 * same code drives the shared test runtime and the isolated one of `isolated-runtime.ts`.
 */
import { expect } from "vitest";
import { requestAt, unique, type ApiResponse } from "../support/api.js";
import { injectMoveFaults } from "../../functions/moves/domain/fault-injection.js";

export type Kind = "project" | "snippet" | "group";
export const plural = { project: "projects", snippet: "snippets", group: "groups" } as const;
const TERMINAL = ["finished", "failed", "cleanup failed"];

export interface Client {
  baseUrl: string;
  token: string;
}

type Options = { token?: string | null; body?: unknown };

/** A real HTTP request; the admin token is sent unless `token` is given (null: none). */
export function call<T = any>(client: Client, method: string, path: string, opts: Options = {}): Promise<ApiResponse<T>> {
  const token = opts.token === undefined ? client.token : (opts.token ?? undefined);
  return requestAt<T>(client.baseUrl, method, path, { token, body: opts.body });
}

/** Polls the move's GET endpoint until it reaches a terminal state (no wall-clock assertions). */
export async function waitForMove(client: Client, kind: Kind, id: number, timeoutMs = 50_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(client, "GET", `/api/v4/${kind}_repository_storage_moves/${id}`);
    expect(res.status).toBe(200);
    if (TERMINAL.includes(res.body.state)) return res.body;
    if (Date.now() > deadline) throw new Error(`move ${kind}#${id} still ${res.body.state}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function scheduleMove(client: Client, kind: Kind, id: number, destination?: string) {
  const res = await call(client, "POST", `/api/v4/${plural[kind]}/${id}/repository_storage_moves`, {
    body: destination === undefined ? {} : { destination_storage_name: destination },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; state: string; source_storage_name: string; destination_storage_name: string };
}

export async function newProject(client: Client, token = client.token) {
  const res = await call(client, "POST", "/api/v4/projects", { token, body: { name: unique("mv"), initialize_with_readme: true } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; path_with_namespace: string; name: string };
}

export async function newSnippet(client: Client) {
  const res = await call(client, "POST", "/api/v4/snippets", {
    body: { title: unique("snip"), visibility: "private", files: [{ file_path: "hello.txt", content: "hello\n" }] },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number };
}

/** A group with a wiki repository (the first page creates it). */
export async function newGroupWithWiki(client: Client) {
  const group = await call(client, "POST", "/api/v4/groups", { body: { name: "Moves", path: unique("grp") } });
  expect(group.status, group.text).toBe(201);
  const page = await call(client, "POST", `/api/v4/groups/${group.body.id}/wikis`, { body: { title: "Home", content: "welcome" } });
  expect(page.status, page.text).toBe(201);
  return group.body as { id: number; full_path: string };
}

/** Where a container's repository is now, read from its item. */
export async function storageOf(kind: Kind, id: number): Promise<string | undefined> {
  const { getItem } = await import("../../functions/platform/db/table.js");
  const item = await getItem<{ storage?: string }>(`${kind.toUpperCase()}#${id}`, kind.toUpperCase());
  return item?.storage;
}

export async function commit(client: Client, projectId: number, message: string) {
  return call(client, "POST", `/api/v4/projects/${projectId}/repository/commits`, {
    body: { branch: "main", commit_message: message, actions: [{ action: "create", file_path: `${unique("f")}.txt`, content: message }] },
  });
}

/** A storage other than `storage`, preferring the cluster (so replicas get exercised). */
export const otherStorage = (storage: string) => (storage === "cluster" ? "secondary" : "cluster");

export const repoKind = (kind: Kind) => (kind === "group" ? "group-wiki" : kind);

/** Holds the first task run that `matches` until `release()`; `reached` resolves once one is held. */
export function holdAt(matches: (point: string, phase: string, input: any) => boolean) {
  let release!: () => void;
  let reachedNow!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const reached = new Promise<void>((r) => (reachedNow = r));
  let held = false;
  injectMoveFaults(async (point, phase, input) => {
    if (held || !matches(point, phase, input)) return;
    held = true;
    reachedNow();
    await released;
  });
  return { reached, release };
}
