/**
 * Who is calling (not shown in the seed): HTTP Basic — the original's default — or the `api_key`
 * query parameter (checked first when present, as Toba orders its providers), against the users file.
 * 401 carries `WWW-Authenticate: Basic` so a browser opening `/rest/v2/` asks for credentials; 403 is
 * the original's `Acceso denegado` envelope.
 */
import type { Context } from "hono";
import { rest_error } from "../domain/errores.js";
import { tieneAcceso, type Identidad } from "../domain/permisos.js";
import { autenticar, usuariosVigentes, type Credencial } from "../domain/usuarios.js";
import type { Servicio } from "../domain/doc/tipos.js";
import { permisosDe, type RegistroGenerado } from "../runtime/registro.js";

export const REINO = 'Basic realm="Usuario de la API"';

const noAutenticado = (descripcion: string) => new rest_error(401, descripcion, undefined, { "WWW-Authenticate": REINO });

function credencialDe(c: Context): Credencial | undefined {
  const clave = c.req.query("api_key");
  if (clave !== undefined) return { tipo: "api_key", clave };
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(c.req.header("authorization") ?? "");
  if (!m) return undefined;
  const texto = Buffer.from(m[1]!, "base64").toString("utf8");
  const dos = texto.indexOf(":");
  return dos < 0 ? undefined : { tipo: "basic", usuario: texto.slice(0, dos), password: texto.slice(dos + 1) };
}

export function autenticarPedido(c: Context, registro: RegistroGenerado): Identidad {
  const credencial = credencialDe(c);
  if (!credencial) throw noAutenticado("Se requiere autenticación: HTTP Basic o el parámetro api_key");
  const identidad = autenticar(credencial, usuariosVigentes(registro.usuarios));
  if (!identidad) {
    throw noAutenticado(credencial.tipo === "api_key" ? "No se encontró un usuario para la api_key indicada" : "Autenticación cancelada: usuario o contraseña incorrectos");
  }
  return identidad;
}

export function autorizar(identidad: Identidad, registro: RegistroGenerado, servicio: Servicio): void {
  if (!tieneAcceso(identidad, permisosDe(registro), servicio.permiso, servicio.metodo)) throw new rest_error(403, "Acceso denegado");
}
