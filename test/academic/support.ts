/** Calls to the academic REST interface as the development users of `rest/servidor_usuarios.ts`. */
import { request as httpRequest } from "node:http";
import { api, baseUrl, type ApiResponse } from "../support/api.js";
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

/**
 * A request whose declared body is over the limit, as the administrator, on a connection of its
 * own: the server answers 413 from the declared `Content-Length` without reading the body, then
 * closes the connection. Only the headers are sent: had the body been on its way, the close could
 * reset the connection before the answer was read (a closed socket with unread data sends a
 * reset). A server that waited for the body would never answer, and the test would fail.
 */
export function acadAparte(method: string, path: string, raw: string): Promise<ApiResponse> {
  return new Promise((resolver, rechazar) => {
    const headers = { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(raw)), Authorization: basic(USUARIOS.admin.usuario, USUARIOS.admin.password) };
    const pedido = httpRequest(new URL(path, baseUrl()), { method, agent: false, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => {
        const cabeceras = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") cabeceras.set(k, v);
        resolver({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, headers: cabeceras, text });
        pedido.destroy();
      });
    });
    pedido.on("error", (err: NodeJS.ErrnoException) => (err.code === "EPIPE" || err.code === "ECONNRESET" ? undefined : rechazar(err)));
    pedido.flushHeaders();
  });
}
