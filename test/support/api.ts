/** A small HTTP client for the tests: real requests to the runtime's loopback server. */
import { inject } from "vitest";
import { randomBytes } from "node:crypto";

export const baseUrl = () => inject("baseUrl");
export const adminToken = () => inject("adminToken");

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

type RequestOptions = { token?: string; body?: unknown; headers?: Record<string, string>; raw?: string; redirect?: "follow" | "manual" | "error" };

/** A real HTTP request to the runtime at `base`; JSON bodies are parsed, anything else kept as text. */
export async function requestAt<T = any>(base: string, method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers["Private-Token"] = opts.token;
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, redirect: opts.redirect });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

/** A request to the shared test runtime. */
export const api = <T = any>(method: string, path: string, opts: RequestOptions = {}) => requestAt<T>(baseUrl(), method, path, opts);

export const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;

/** Creates a user with a token of the given scopes (as the bootstrap admin). */
export async function newUser(opts: { admin?: boolean; scopes?: string[] } = {}) {
  const username = unique("user").replace("-", "_");
  const user = await api("POST", "/api/v4/users", {
    token: adminToken(),
    body: { username, name: `User ${username}`, email: `${username}@example.com`, admin: opts.admin ?? false },
  });
  if (user.status !== 201) throw new Error(`user creation failed: ${user.status} ${user.text}`);
  const token = await api("POST", `/api/v4/users/${user.body.id}/personal_access_tokens`, {
    token: adminToken(),
    body: { name: "test", scopes: opts.scopes ?? ["api"] },
  });
  if (token.status !== 201) throw new Error(`token creation failed: ${token.status} ${token.text}`);
  return { id: user.body.id as number, username, token: token.body.token as string };
}
