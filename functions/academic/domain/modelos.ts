/**
 * Models of the academic REST interface, as a resource's static `_get_modelos()` returns them:
 * model name → field name → field definition. Keys starting with `_` are for the library (`_validar`);
 * the others (`type`, `enum`, `format`, `description`, `readOnly`, `default`, `$ref`, `items`) go to
 * the Swagger document as they are.
 */
import type { Regla } from "./validador.js";

export interface CampoModelo {
  type?: string;
  enum?: readonly (string | number | boolean)[];
  format?: string;
  description?: string;
  /** Sent in responses only (Swagger 2.0 `readOnly`): ignored when a client sends it in a body. */
  readOnly?: boolean;
  default?: unknown;
  /** Another model: `Edificio_uni` (3.16's form) or `#/definitions/Edificio_uni` (3.22's). */
  $ref?: string;
  items?: { type?: string; $ref?: string };
  _validar?: readonly Regla[];
}

export type Modelo = Record<string, CampoModelo>;
export type Modelos = Record<string, Modelo>;

/**
 * The model-provider interface of SIU's library. In PHP it declares `public static function
 * _get_modelos()`; TypeScript interfaces cannot describe static members, so this is the marker a
 * class `implements`, and `ClaseModelable` is the static side the generated registry type-checks.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface modelable {}

export interface ClaseModelable {
  _get_modelos(): Modelos;
}

/**
 * Field types a model may declare: Swagger 2.0's own, and the format names the library maps to them
 * (`date` → `string` + `format: date`, `int64` → `integer` + `format: int64`, …).
 */
const FORMATOS: Record<string, string> = { date: "string", "date-time": "string", byte: "string", binary: "string", password: "string", int32: "integer", int64: "integer", float: "number", double: "number" };
export const TIPOS_CAMPO = ["string", "integer", "number", "boolean", "array", "object", ...Object.keys(FORMATOS)] as const;

/** A declared type as Swagger 2.0 writes it: `date` → `{ type: "string", format: "date" }`. */
export function tipoSwagger(tipo: string): { type: string; format?: string } {
  const base = FORMATOS[tipo];
  return base ? { type: base, format: tipo } : { type: tipo };
}

/** `#/definitions/X` → `X`; anything else unchanged. */
export function nombreDeModelo(ref: string): string {
  return ref.startsWith("#/definitions/") ? ref.slice("#/definitions/".length) : ref;
}

/** Every model name a field refers to (`$ref` or `items.$ref`). */
export function referenciasDe(modelo: Modelo): string[] {
  const refs: string[] = [];
  for (const campo of Object.values(modelo)) {
    if (campo.$ref) refs.push(nombreDeModelo(campo.$ref));
    if (campo.items?.$ref) refs.push(nombreDeModelo(campo.items.$ref));
  }
  return refs;
}

export type Registro = Record<string, unknown>;

/**
 * Shapes a stored record into a model: only the model's fields, in the model's order, a missing
 * field as `null` (like SIU's `rest_hidratador`). Fields that refer to another model are copied.
 */
export function hidratar(modelo: Modelo, fila: Registro, extra: readonly string[] = []): Registro {
  const out: Registro = {};
  for (const campo of [...extra, ...Object.keys(modelo)]) out[campo] = Object.hasOwn(fila, campo) ? fila[campo] ?? null : null;
  return out;
}
