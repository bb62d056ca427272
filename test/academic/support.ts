/** Calls to the academic REST interface as the development users of `rest/servidor_usuarios.ts`. */
import { api, type ApiResponse } from "../support/api.js";
import { randomBytes } from "node:crypto";

export const USUARIOS = {
  admin: { usuario: "admin_dev", password: "admin-dev-clave", api_key: "dev-api-key-admin-7f3c9a1e5b2d4c6f" },
  verificador: { usuario: "verificador_dev", password: "verificador-dev-clave", api_key: "dev-api-key-verificador-2a8e4b6c1d3f5a7e" },
  invitado: { usuario: "invitado_dev", password: "invitado-dev-clave", api_key: "dev-api-key-invitado-9c1e3a5b7d2f4e6a" },
} as const;

export type Quien = keyof typeof USUARIOS | "anonimo";

export const basic = (usuario: string, password: string) => `Basic ${Buffer.from(`${usuario}:${password}`).toString("base64")}`;

/** The two releases and their base paths; most tests run on both. */
export const RELEASES = [
  { release: "3.22", base: "/rest/v2" },
  { release: "3.16", base: "/rest" },
] as const;

export function acad<T = any>(
  method: string,
  path: string,
  opts: { como?: Quien; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const como = opts.como ?? "admin";
  const headers: Record<string, string> = { ...opts.headers };
  if (como !== "anonimo") headers.Authorization ??= basic(USUARIOS[como].usuario, USUARIOS[como].password);
  if (opts.raw !== undefined) headers["Content-Type"] ??= "application/json";
  return api<T>(method, path, { headers, body: opts.body, raw: opts.raw });
}

/** A short random tag to keep a test's records apart from other tests' (they share one database). */
export const marca = (prefijo = "T") => `${prefijo}${randomBytes(3).toString("hex")}`;

export const q = (valor: string) => encodeURIComponent(valor);
