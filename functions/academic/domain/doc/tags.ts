/**
 * The two tags with an inner grammar:
 * - `@param_query $<name> [<type>] [(defecto: <default>)] [<allowed order terms>] <description>`
 * - `@responses <status> <description>` | `<status> {"$ref":"<Model>"} [<description>]`
 *   | `<status> array {"$ref":"<Model>"} [<description>]`
 * Each returns the parsed value or a message saying what is wrong.
 */
import type { ParamQuery, Respuesta } from "./tipos.js";
import { nombreDeModelo } from "../modelos.js";

/** Types a query parameter may declare; `filter` marks a `<condicion>;<valor>` filter. */
export const TIPOS_QUERY = ["string", "integer", "number", "boolean", "date", "filter"] as const;

export function parsearParamQuery(valor: string): ParamQuery | string {
  const m = /^\$(\w+)(.*)$/.exec(valor);
  if (!m) return valor.startsWith("$") ? `"$" must be followed by the parameter name` : `must start with $<name>, found "${valor}"`;
  const nombre = m[1]!;
  if (nombre === "api_key") return "$api_key is reserved for authentication";
  let resto = m[2]!.trim();
  let tipo: string | undefined;
  const palabra = /^([\w-]+)(?=\s|$)/.exec(resto)?.[1];
  if (palabra && (TIPOS_QUERY as readonly string[]).includes(palabra)) {
    tipo = palabra;
    resto = resto.slice(palabra.length).trim();
  } else if (palabra && /^[\w-]+\s*(\(defecto:|\[)/.test(resto)) {
    return `unknown type "${palabra}" (use one of ${TIPOS_QUERY.join(", ")})`;
  }
  let defecto: string | undefined;
  let terminos: string[] | undefined;
  for (;;) {
    if (/^\(\s*defecto\s*:/i.test(resto)) {
      if (defecto !== undefined) return "(defecto: …) appears twice";
      const cierre = resto.indexOf(")");
      if (cierre < 0) return `unclosed "(defecto:" — expected "(defecto: <value>)"`;
      defecto = resto.slice(resto.indexOf(":") + 1, cierre).trim();
      if (defecto === "") return "(defecto: …) has no value";
      resto = resto.slice(cierre + 1).trim();
    } else if (resto.startsWith("[")) {
      if (terminos !== undefined) return "[…] appears twice";
      const cierre = resto.indexOf("]");
      if (cierre < 0) return `unclosed "[" — expected "[<term>, <term>]"`;
      terminos = resto
        .slice(1, cierre)
        .split(/[,|\\]/)
        .map((t) => t.trim().replace(/^(\+\/-|\+-|-\/\+|[+-])\s*/, ""))
        .filter((t) => t !== "");
      if (terminos.length === 0) return "[…] lists no terms";
      resto = resto.slice(cierre + 1).trim();
    } else break;
  }
  const p: ParamQuery = { nombre, descripcion: resto };
  if (tipo) p.tipo = tipo;
  if (defecto !== undefined) p.defecto = defecto;
  if (terminos) p.terminos = terminos;
  return p;
}

export function parsearRespuesta(valor: string): Respuesta | string {
  const m = /^(\S+)(?:\s+(.*))?$/.exec(valor);
  if (!m) return `expected "<status> <description>", found nothing`;
  if (!/^[1-5]\d\d$/.test(m[1]!)) return `"${m[1]}" is not an HTTP status (100-599)`;
  const estado = Number(m[1]);
  let resto = (m[2] ?? "").trim();
  let arreglo = false;
  if (/^array\s+\{/.test(resto)) {
    arreglo = true;
    resto = resto.slice("array".length).trim();
  }
  if (!resto.startsWith("{")) {
    if (arreglo) return "array must be followed by {\"$ref\":\"<Model>\"}";
    return { estado, descripcion: resto };
  }
  const cierre = resto.indexOf("}");
  if (cierre < 0) return `unclosed "{" — expected {"$ref":"<Model>"}`;
  let json: unknown;
  try {
    json = JSON.parse(resto.slice(0, cierre + 1));
  } catch {
    return `${resto.slice(0, cierre + 1)} is not valid JSON — expected {"$ref":"<Model>"}`;
  }
  const ref = (json as { $ref?: unknown }).$ref;
  if (typeof ref !== "string" || Object.keys(json as object).length !== 1 || !/^(#\/definitions\/)?\w+$/.test(ref)) {
    return `expected {"$ref":"<Model>"}, found ${resto.slice(0, cierre + 1)}`;
  }
  return { estado, descripcion: resto.slice(cierre + 1).trim(), esquema: { modelo: nombreDeModelo(ref), arreglo } };
}
