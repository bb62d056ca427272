/**
 * Body validation against a model, with the rules and messages of SIU's `rest_validador`:
 * `detalle: { <campo>: [msg, …], "campos_no_permitidos": ["Se encontraron campos no permitidos: a, b."] }`.
 *
 * As in the original, an empty value (`undefined`, `null`, `""`, `[]`) passes every rule except
 * `obligatorio`. Beyond the original: the declared `type` is checked, a `$ref` field is validated
 * against the referenced model (errors keyed `edificio.nombre`), and `readOnly` fields are dropped.
 */
import * as z from "zod";
import { nombreDeModelo, type Modelo, type Modelos, type Registro } from "./modelos.js";

export type Regla =
  | { regla: "obligatorio" }
  | { regla: "fecha"; formato?: string }
  | { regla: "enum"; opciones: readonly (string | number | boolean)[] }
  | { regla: "entero"; min?: number; max?: number }
  | { regla: "longitud"; min?: number; max?: number };

/** The validators a field lists in `_validar`. */
export const validador = {
  obligatorio: (): Regla => ({ regla: "obligatorio" }),
  /** `Y-m-d` by default; `formato` may combine `Y`, `m`, `d` with any separators (`d/m/Y`). */
  fecha: (formato?: string): Regla => ({ regla: "fecha", ...(formato ? { formato } : {}) }),
  enum: (opciones: readonly (string | number | boolean)[]): Regla => ({ regla: "enum", opciones }),
  entero: (limites: { min?: number; max?: number } = {}): Regla => ({ regla: "entero", ...limites }),
  longitud: (limites: { min?: number; max?: number }): Regla => ({ regla: "longitud", ...limites }),
};

const vacio = (v: unknown) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
const mostrar = (v: unknown) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));

/** `" Parámetros: min, max => 1, 5"` (the original's sprintf suffix), or `""` without parameters. */
function parametros(valores: Record<string, unknown>): string {
  const claves = Object.keys(valores).filter((k) => valores[k] !== undefined);
  if (claves.length === 0) return "";
  return ` Parámetros: ${claves.join(", ")} => ${claves.map((k) => mostrar(valores[k])).join(", ")}`;
}

export function esFecha(valor: string, formato = "Y-m-d"): boolean {
  const partes: string[] = [];
  const patron = formato.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[Ymd]/g, (t) => {
    partes.push(t);
    return t === "Y" ? "(\\d{1,4})" : "(\\d{1,2})";
  });
  const m = new RegExp(`^${patron}$`).exec(valor);
  if (!m) return false;
  const v = (t: string) => Number(m[partes.indexOf(t) + 1]);
  const [y, mes, d] = [v("Y"), v("m"), v("d")];
  const fecha = new Date(Date.UTC(y, mes - 1, d));
  fecha.setUTCFullYear(y);
  return fecha.getUTCFullYear() === y && fecha.getUTCMonth() === mes - 1 && fecha.getUTCDate() === d;
}

/** The message of a broken rule, or undefined when the value satisfies it. */
export function aplicarRegla(regla: Regla, campo: string, valor: unknown): string | undefined {
  if (regla.regla === "obligatorio") return vacio(valor) ? `El campo '${campo}' es obligatoio.` : undefined;
  if (vacio(valor)) return undefined;
  const recibido = mostrar(valor);
  switch (regla.regla) {
    case "fecha": {
      const ok = typeof valor === "string" && esFecha(valor, regla.formato);
      return ok ? undefined : `El campo '${campo}' debe ser una fecha. Se recibió '${recibido}'.${parametros({ format: regla.formato })}`;
    }
    case "enum": {
      const ok = regla.opciones.some((o) => o === valor);
      const lista = Object.fromEntries(regla.opciones.map((o, i) => [String(i), o]));
      return ok ? undefined : `El campo '${campo}' no pertenece a la lista de opciones válidas. Se recibió '${recibido}'.${parametros(lista)}`;
    }
    case "entero": {
      const n = typeof valor === "number" ? valor : typeof valor === "string" && /^\d+$/.test(valor) ? Number(valor) : NaN;
      const ok = Number.isInteger(n) && (regla.min === undefined || n >= regla.min) && (regla.max === undefined || n <= regla.max);
      return ok ? undefined : `El campo '${campo}' debe ser un número entero. Se recibió '${recibido}'.${parametros({ min: regla.min, max: regla.max })}`;
    }
    case "longitud": {
      const largo = [...String(valor)].length;
      const ok = (regla.min === undefined || largo >= regla.min) && (regla.max === undefined || largo <= regla.max);
      return ok ? undefined : `El campo '${campo}' debe tener longitud apropiada. Se recibió '${recibido}'.${parametros({ min: regla.min, max: regla.max })}`;
    }
  }
}

const TIPOS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  date: (v) => typeof v === "string",
  integer: (v) => typeof v === "number" && Number.isInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
};

export type Detalle = Record<string, string[]>;

function validarEn(datos: Registro, modelo: Modelo, modelos: Modelos, prefijo: string, detalle: Detalle): Registro {
  const limpio: Registro = {};
  const ajenos = Object.keys(datos).filter((k) => !Object.hasOwn(modelo, k));
  if (ajenos.length > 0) {
    (detalle.campos_no_permitidos ??= []).push(`Se encontraron campos no permitidos: ${ajenos.map((k) => prefijo + k).join(", ")}.`);
  }
  for (const [nombre, campo] of Object.entries(modelo)) {
    if (campo.readOnly || !Object.hasOwn(datos, nombre)) {
      if (!campo.readOnly) for (const r of campo._validar ?? []) agregar(detalle, prefijo + nombre, aplicarRegla(r, prefijo + nombre, undefined));
      continue;
    }
    const valor = datos[nombre];
    const clave = prefijo + nombre;
    const tipo = campo.type && TIPOS[campo.type];
    if (!vacio(valor) && tipo && !tipo(valor)) agregar(detalle, clave, `El campo '${clave}' debe ser de tipo ${campo.type}. Se recibió '${mostrar(valor)}'.`);
    for (const r of campo._validar ?? []) agregar(detalle, clave, aplicarRegla(r, clave, valor));
    const ref = campo.$ref ? modelos[nombreDeModelo(campo.$ref)] : undefined;
    if (ref && !vacio(valor)) {
      if (!TIPOS.object!(valor)) agregar(detalle, clave, `El campo '${clave}' debe ser un objeto ${nombreDeModelo(campo.$ref!)}. Se recibió '${mostrar(valor)}'.`);
      else limpio[nombre] = validarEn(valor as Registro, ref, modelos, `${clave}.`, detalle);
    } else limpio[nombre] = valor;
  }
  return limpio;
}

function agregar(detalle: Detalle, clave: string, mensaje: string | undefined) {
  if (mensaje) (detalle[clave] ??= []).push(mensaje);
}

/** `{ ok, datos }` with readOnly and unknown fields dropped, or `{ ok: false, detalle }`. */
export function validar(datos: Registro, modelo: Modelo, modelos: Modelos): { ok: true; datos: Registro } | { ok: false; detalle: Detalle } {
  const detalle: Detalle = {};
  const limpio = validarEn(datos, modelo, modelos, "", detalle);
  return Object.keys(detalle).length === 0 ? { ok: true, datos: limpio } : { ok: false, detalle };
}

/**
 * The zod schema of a body of this model: a JSON object whose fields satisfy the model. Issues carry
 * the field (`path: [campo]`) and the SIU message, so `detalleDeIssues` rebuilds the envelope's detalle.
 */
export function esquemaDeCuerpo(modelo: Modelo, modelos: Modelos) {
  return z.record(z.string(), z.unknown()).transform((datos, ctx) => {
    const r = validar(datos, modelo, modelos);
    if (r.ok) return r.datos;
    for (const [campo, mensajes] of Object.entries(r.detalle)) {
      for (const message of mensajes) ctx.addIssue({ code: "custom", path: [campo], message });
    }
    return z.NEVER;
  });
}

export function detalleDeIssues(issues: readonly z.core.$ZodIssue[]): Detalle {
  const detalle: Detalle = {};
  for (const issue of issues) agregar(detalle, issue.path.map(String).join(".") || "cuerpo", issue.message);
  return detalle;
}
