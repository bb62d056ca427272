/**
 * Body validation against a model, with the rules and messages of SIU's `rest_validador`:
 * `detalle: { <campo>: [msg, …], "campos_no_permitidos": ["Se encontraron campos no permitidos: a, b."] }`.
 *
 * As in the original, an empty value (`undefined`, `null`, `""`, `[]`) passes every rule except
 * `obligatorio`. Beyond the original: the declared `type` is checked (`integer` and `number` accept
 * digit and numeric strings, like the `int` and `numerico` rules), a `$ref` field is validated
 * against the referenced model (errors keyed `edificio.nombre`), and `readOnly` fields are dropped.
 */
import * as z from "zod/mini";
import { nombreDeModelo, tipoSwagger, type Modelo, type Modelos, type Registro } from "./modelos.js";

export type Regla =
  | { regla: "obligatorio" }
  | { regla: "entero"; min?: number; max?: number }
  | { regla: "numerico"; min?: number; max?: number }
  | { regla: "alpha" }
  | { regla: "alphanum" }
  | { regla: "fecha"; formato?: string }
  | { regla: "hora"; formato?: string }
  | { regla: "longitud"; min?: number; max?: number }
  | { regla: "enum"; opciones: readonly (string | number | boolean)[] }
  | { regla: "mail" }
  | { regla: "custom"; formato: string }
  | { regla: "arreglo"; min?: number; max?: number }
  | { regla: "texto" };

/** Every rule name (what `pers_autoload` accepts in `_validar`). */
export const REGLAS = ["obligatorio", "entero", "numerico", "alpha", "alphanum", "fecha", "hora", "longitud", "enum", "mail", "custom", "arreglo", "texto"] as const;

/** The validators a field lists in `_validar` (the original's `rest_validador` rules, same messages). */
export const validador = {
  /** Not empty (`""`, `null`, `[]` and an absent field are empty). */
  obligatorio: (): Regla => ({ regla: "obligatorio" }),
  /** The original's `int`: a non-negative integer, or a string of digits (`"6"`, `"05"`). */
  entero: (limites: { min?: number; max?: number } = {}): Regla => ({ regla: "entero", ...limites }),
  /** The original's `numerico`: any number, or a numeric string (`"-5"`, `"1e3"`, `" 5"`). */
  numerico: (limites: { min?: number; max?: number } = {}): Regla => ({ regla: "numerico", ...limites }),
  /** Letters a-z, A-Z only. */
  alpha: (): Regla => ({ regla: "alpha" }),
  /** Letters and digits only. */
  alphanum: (): Regla => ({ regla: "alphanum" }),
  /** `Y-m-d` by default; `formato` may combine `Y`, `m`, `d` with any separators (`d/m/Y`). */
  fecha: (formato?: string): Regla => ({ regla: "fecha", ...(formato ? { formato } : {}) }),
  /** `H:i:s` by default; `formato` may combine `H`, `i`, `s` with any separators (`H:i`). */
  hora: (formato?: string): Regla => ({ regla: "hora", ...(formato ? { formato } : {}) }),
  /** Length in characters (not bytes) within the bounds. */
  longitud: (limites: { min?: number; max?: number }): Regla => ({ regla: "longitud", ...limites }),
  /** One of the options, compared strictly (`"1"` is not `1`). */
  enum: (opciones: readonly (string | number | boolean)[]): Regla => ({ regla: "enum", opciones }),
  /** An e-mail address of at most 127 characters. */
  mail: (): Regla => ({ regla: "mail" }),
  /** Matches the regular expression `formato`, anchored at the end only (as the original's `/<formato>$/`). */
  custom: (formato: string): Regla => ({ regla: "custom", formato }),
  /** A JSON array with a number of elements within the bounds. */
  arreglo: (limites: { min?: number; max?: number } = {}): Regla => ({ regla: "arreglo", ...limites }),
  /** Any text (documents the field; never fails). */
  texto: (): Regla => ({ regla: "texto" }),
};

const vacio = (v: unknown) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
const mostrar = (v: unknown) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));

/** `" Parámetros: min, max => 1, 5"` (the original's sprintf suffix), or `""` without parameters. */
function parametros(valores: Record<string, unknown>): string {
  const claves = Object.keys(valores).filter((k) => valores[k] !== undefined);
  if (claves.length === 0) return "";
  return ` Parámetros: ${claves.join(", ")} => ${claves.map((k) => mostrar(valores[k])).join(", ")}`;
}

/** A date (`Y`, `m`, `d`) or time (`H`, `i`, `s`) in the given format, with real calendar days. */
function segunFormato(valor: string, formato: string): Record<string, number> | undefined {
  const partes: string[] = [];
  const patron = formato.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[YmdHis]/g, (t) => {
    partes.push(t);
    return t === "Y" ? "(\\d{1,4})" : "(\\d{1,2})";
  });
  const m = new RegExp(`^${patron}$`).exec(valor);
  return m ? Object.fromEntries(partes.map((t, i) => [t, Number(m[i + 1])])) : undefined;
}

export function esFecha(valor: string, formato = "Y-m-d"): boolean {
  const p = segunFormato(valor, formato);
  if (!p || p.Y === undefined || p.m === undefined || p.d === undefined) return false;
  const fecha = new Date(Date.UTC(p.Y, p.m - 1, p.d));
  fecha.setUTCFullYear(p.Y);
  return fecha.getUTCFullYear() === p.Y && fecha.getUTCMonth() === p.m - 1 && fecha.getUTCDate() === p.d;
}

export function esHora(valor: string, formato = "H:i:s"): boolean {
  const p = segunFormato(valor, formato);
  return Boolean(p) && (p!.H ?? 0) < 24 && (p!.i ?? 0) < 60 && (p!.s ?? 0) < 60;
}

/** PHP's `is_numeric`. */
export const esNumerico = (v: unknown) => (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(v));
/** PHP's `is_int($v) || ctype_digit($v)`: no sign, no spaces. */
export const esEntero = (v: unknown) => (typeof v === "number" && Number.isInteger(v)) || (typeof v === "string" && /^\d+$/.test(v));

const enRango = (n: number, r: { min?: number; max?: number }) => (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max);
const MAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** The message of a broken rule, or undefined when the value satisfies it. */
export function aplicarRegla(regla: Regla, campo: string, valor: unknown): string | undefined {
  if (regla.regla === "obligatorio") return vacio(valor) ? `El campo '${campo}' es obligatoio.` : undefined;
  if (vacio(valor)) return undefined;
  const recibido = mostrar(valor);
  const mensaje = (texto: string, params: Record<string, unknown> = {}) => `El campo '${campo}' ${texto}. Se recibió '${recibido}'.${parametros(params)}`;
  const limites = (r: { min?: number; max?: number }) => ({ min: r.min, max: r.max });
  switch (regla.regla) {
    case "entero":
      return esEntero(valor) && enRango(Number(valor), regla) ? undefined : mensaje("debe ser un número entero", limites(regla));
    case "numerico":
      return esNumerico(valor) && enRango(Number(valor), regla) ? undefined : mensaje("debe ser un número decimal", limites(regla));
    case "alpha":
      return typeof valor === "string" && /^[a-zA-Z]+$/.test(valor) ? undefined : mensaje("debe ser de texto a-zA-Z");
    case "alphanum":
      return typeof valor === "string" && /^[a-zA-Z0-9]+$/.test(valor) ? undefined : mensaje("debe ser alfanumérico");
    case "fecha":
      return typeof valor === "string" && esFecha(valor, regla.formato) ? undefined : mensaje("debe ser una fecha", { format: regla.formato });
    case "hora":
      return typeof valor === "string" && esHora(valor, regla.formato) ? undefined : mensaje("debe ser una hora", { format: regla.formato });
    case "longitud": {
      const largo = [...String(valor)].length;
      return enRango(largo, regla) ? undefined : mensaje("debe tener longitud apropiada", limites(regla));
    }
    case "enum": {
      const lista = Object.fromEntries(regla.opciones.map((o, i) => [String(i), o]));
      return regla.opciones.some((o) => o === valor) ? undefined : mensaje("no pertenece a la lista de opciones válidas", lista);
    }
    case "mail":
      return typeof valor === "string" && valor.length <= 127 && MAIL.test(valor) ? undefined : mensaje("debe ser un mail");
    case "custom":
      return typeof valor === "string" && new RegExp(`${regla.formato}$`).test(valor) ? undefined : mensaje("no es válido", { format: regla.formato });
    case "arreglo":
      return Array.isArray(valor) && enRango(valor.length, regla) ? undefined : mensaje("debe ser un arreglo", limites(regla));
    case "texto":
      return undefined;
  }
}

/**
 * The declared `type` of a field, checked beyond the original (which checked none). As the
 * original's `int` and `numerico` rules accept digit and numeric strings, so do `integer` and
 * `number` fields; the value is stored as a number.
 */
const TIPOS: Record<string, { valido: (v: unknown) => boolean; mensaje?: string; convertir?: (v: unknown) => unknown }> = {
  string: { valido: (v) => typeof v === "string" },
  integer: { valido: esEntero, mensaje: "debe ser un número entero", convertir: Number },
  number: { valido: esNumerico, mensaje: "debe ser un número decimal", convertir: Number },
  boolean: { valido: (v) => typeof v === "boolean" },
  array: { valido: (v) => Array.isArray(v) },
  object: { valido: (v) => typeof v === "object" && v !== null && !Array.isArray(v) },
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
    const tipo = campo.type ? TIPOS[tipoSwagger(campo.type).type] : undefined;
    const tipoValido = vacio(valor) || !tipo || tipo.valido(valor);
    if (!tipoValido) agregar(detalle, clave, `El campo '${clave}' ${tipo!.mensaje ?? `debe ser de tipo ${campo.type}`}. Se recibió '${mostrar(valor)}'.`);
    for (const r of campo._validar ?? []) agregar(detalle, clave, aplicarRegla(r, clave, valor));
    const ref = campo.$ref ? modelos[nombreDeModelo(campo.$ref)] : undefined;
    if (ref && !vacio(valor)) {
      if (!TIPOS.object!.valido(valor)) agregar(detalle, clave, `El campo '${clave}' debe ser un objeto ${nombreDeModelo(campo.$ref!)}. Se recibió '${mostrar(valor)}'.`);
      else limpio[nombre] = validarEn(valor as Registro, ref, modelos, `${clave}.`, detalle);
    } else limpio[nombre] = tipoValido && !vacio(valor) && tipo?.convertir ? tipo.convertir(valor) : valor;
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
  return z.pipe(z.record(z.string(), z.unknown()), z.transform((datos, ctx) => {
    const r = validar(datos, modelo, modelos);
    if (r.ok) return r.datos;
    for (const [campo, mensajes] of Object.entries(r.detalle)) {
      for (const message of mensajes) ctx.issues.push({ code: "custom", path: [campo], message, input: datos });
    }
    return z.NEVER;
  }));
}

export function detalleDeIssues(issues: readonly z.core.$ZodIssue[]): Detalle {
  const detalle: Detalle = {};
  for (const issue of issues) agregar(detalle, issue.path.map(String).join(".") || "cuerpo", issue.message);
  return detalle;
}
