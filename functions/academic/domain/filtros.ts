/**
 * Filters of list services, written `<condicion>;<valor>` (`entre;<desde>;<hasta>`), with the 13
 * conditions of SIU's `rest_filtro_sql`.
 *
 * The value is split on `;` as the original does (`explode`): the condition, the value, and for
 * `entre` the upper bound; further parts are ignored (`contiene;a;b;c` filters `contiene;a`), and
 * `entre;a` has no upper bound, so like SQL's `BETWEEN 'a' AND NULL` it matches nothing.
 *
 * Values are matched **literally**: `%` and `_` are ordinary characters (the original passed them to
 * `ILIKE` as wildcards). Text conditions (`contiene`, `no_contiene`, `comienza_con`, `termina_con`)
 * ignore case but not accents, like `ILIKE`. A record whose field is missing never matches (SQL `NULL`).
 */
import { compararConTexto, faltante, igualATexto, texto } from "./comparar.js";
import { mensajeParametroInvalido } from "./errores.js";

export const CONDICIONES = [
  "entre",
  "es_mayor_que",
  "desde",
  "es_mayor_igual_que",
  "es_menor_que",
  "es_menor_igual_que",
  "hasta",
  "es_igual_a",
  "es_distinto_de",
  "contiene",
  "no_contiene",
  "comienza_con",
  "termina_con",
] as const;

export type Condicion = (typeof CONDICIONES)[number];

export interface Filtro {
  campo: string;
  condicion: Condicion;
  valor: string;
  /** Only for `entre`; absent when the query gave no upper bound (then nothing matches). */
  hasta?: string;
}

export type ResultadoFiltro = { ok: true; filtro: Filtro | undefined } | { ok: false; mensaje: string };

const esCondicion = (c: string): c is Condicion => (CONDICIONES as readonly string[]).includes(c);

/** A query value → a filter; a blank value is no filter (`undefined`), as in the original. */
export function parsearFiltro(campo: string, crudo: string): ResultadoFiltro {
  const valor = crudo.trim();
  if (valor === "") return { ok: true, filtro: undefined };
  const [condicion = "", primero, segundo] = valor.split(";");
  if (primero === undefined) return error(campo, `Se esperaba 'condicion;valor' y llego '${valor}'`);
  if (!esCondicion(condicion)) return error(campo, `No es valida la condicion '${condicion}'`);
  if (condicion !== "entre") return { ok: true, filtro: { campo, condicion, valor: primero } };
  return { ok: true, filtro: { campo, condicion, valor: primero, ...(segundo !== undefined ? { hasta: segundo } : {}) } };
}

const error = (campo: string, motivo: string): ResultadoFiltro => ({ ok: false, mensaje: mensajeParametroInvalido(campo, motivo) });

/** Whether a stored value satisfies the filter. */
export function cumple(filtro: Filtro, valor: unknown): boolean {
  if (faltante(valor)) return false;
  const v = filtro.valor;
  switch (filtro.condicion) {
    case "entre":
      return filtro.hasta !== undefined && compararConTexto(valor, v) >= 0 && compararConTexto(valor, filtro.hasta) <= 0;
    case "es_mayor_que":
      return compararConTexto(valor, v) > 0;
    case "desde":
    case "es_mayor_igual_que":
      return compararConTexto(valor, v) >= 0;
    case "es_menor_que":
      return compararConTexto(valor, v) < 0;
    case "es_menor_igual_que":
    case "hasta":
      return compararConTexto(valor, v) <= 0;
    case "es_igual_a":
      return igualATexto(valor, v);
    case "es_distinto_de":
      return !igualATexto(valor, v);
    case "contiene":
      return minusculas(valor).includes(v.toLowerCase());
    case "no_contiene":
      return !minusculas(valor).includes(v.toLowerCase());
    case "comienza_con":
      return minusculas(valor).startsWith(v.toLowerCase());
    case "termina_con":
      return minusculas(valor).endsWith(v.toLowerCase());
  }
}

const minusculas = (v: unknown) => texto(v).toLowerCase();
