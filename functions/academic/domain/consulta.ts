/**
 * The list query of a service — filters, `order`, `limit`, `page` — declared by its `@param_query`
 * tags, parsed with zod into a `Consulta` and applied in memory to the records of one partition.
 *
 * Semantics (SIU's `rest_filtro_sql`, with the differences recorded in docs/academic-rest.md):
 * - `order`: comma list of `+campo`/`-campo`, each field among the declared terms; absent or blank →
 *   the declared default. An unencoded `+` arrives as a space, so a term that starts with a space
 *   counts as ascending.
 * - `limit`: absent → the declared default (none if not declared); present but blank → no limit, as
 *   in the original; a number is truncated (`2.7` → 2) and must be 0..1000; anything else is a 400
 *   (the original silently dropped the limit).
 * - `page`: read only when there is a limit; a non-numeric page is ignored (as in the original); a
 *   number is truncated and must be ≥ 1 (pages start at 1).
 */
import * as z from "zod/mini";
import { comparar } from "./comparar.js";
import { cumple, parsearFiltro, type Filtro } from "./filtros.js";
import { mensajeParametroInvalido } from "./errores.js";
import type { ParamQuery } from "./doc/tipos.js";

export const LIMITE_MAXIMO = 1000;

export interface Orden {
  campo: string;
  descendente: boolean;
}

export interface Consulta {
  filtros: Filtro[];
  orden: Orden[];
  limite?: number;
  pagina?: number;
}

type Resultado<T> = { ok: true; valor: T } | { ok: false; mensaje: string };

export function parsearOrden(crudo: string, permitidos: readonly string[]): Resultado<Orden[]> {
  const orden: Orden[] = [];
  for (const elemento of crudo.split(",")) {
    const recortado = elemento.trim();
    const espacioInicial = recortado !== "" && /^\s/.test(elemento) && !/^[+-]/.test(recortado);
    const termino = espacioInicial ? `+${recortado}` : recortado;
    const signo = termino.charAt(0);
    if (signo !== "+" && signo !== "-") {
      return { ok: false, mensaje: mensajeParametroInvalido("order", `Se esperaba + o - y se recibio '${signo}'`) };
    }
    const campo = termino.slice(1);
    if (!permitidos.includes(campo)) {
      return { ok: false, mensaje: mensajeParametroInvalido("order", `No esta permitido ordenar por campo '${campo}'`) };
    }
    orden.push({ campo, descendente: signo === "-" });
  }
  return { ok: true, valor: orden };
}

/** PHP's `is_numeric`: optional surrounding spaces and sign, decimals, an exponent. */
const NUMERICO = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** `limit`: blank → no limit (`undefined`); a number truncated to an integer 0..1000; else an error. */
export function parsearLimite(crudo: string): Resultado<number | undefined> {
  if (crudo.trim() === "") return { ok: true, valor: undefined };
  const n = NUMERICO.test(crudo) ? Math.trunc(Number(crudo)) : NaN;
  return n >= 0 && n <= LIMITE_MAXIMO
    ? { ok: true, valor: n }
    : { ok: false, mensaje: mensajeParametroInvalido("limit", `Se esperaba un número entre 0 y ${LIMITE_MAXIMO} y se recibio '${crudo}'`) };
}

/** `page`: not a number → ignored (`undefined`); a number truncated to an integer ≥ 1; else an error. */
export function parsearPagina(crudo: string): Resultado<number | undefined> {
  if (!NUMERICO.test(crudo)) return { ok: true, valor: undefined };
  const n = Math.trunc(Number(crudo));
  return n >= 1
    ? { ok: true, valor: n }
    : { ok: false, mensaje: mensajeParametroInvalido("page", `Se esperaba un valor mayor o igual que 1 y se recibio '${crudo}'`) };
}

const blanco = (v: string | undefined): v is undefined => v === undefined || v.trim() === "";

/** The zod schema of a service's query string: declared parameters only (others are ignored). */
export function esquemaDeConsulta(params: readonly ParamQuery[]) {
  return z.pipe(z.record(z.string(), z.string()), z.transform((q, ctx): Consulta => {
    const consulta: Consulta = { filtros: [], orden: [] };
    const fallar = (nombre: string, mensaje: string) => ctx.issues.push({ code: "custom", path: [nombre], message: mensaje, input: q });
    const limite = params.find((p) => p.nombre === "limit");
    const pagina = params.find((p) => p.nombre === "page");
    // Only an absent limit takes the default: `limit=` asks for no limit, as in the original.
    const crudoLimite = limite && (Object.hasOwn(q, "limit") ? q.limit : limite.defecto);
    if (crudoLimite !== undefined) {
      const r = parsearLimite(crudoLimite);
      if (!r.ok) fallar("limit", r.mensaje);
      else if (r.valor !== undefined) consulta.limite = r.valor;
    }
    const crudoPagina = pagina && (blanco(q.page) ? pagina.defecto : q.page);
    if (consulta.limite !== undefined && crudoPagina !== undefined) {
      const r = parsearPagina(crudoPagina);
      if (!r.ok) fallar("page", r.mensaje);
      else if (r.valor !== undefined) consulta.pagina = r.valor;
    }
    for (const p of params) {
      if (p.nombre === "limit" || p.nombre === "page") continue;
      const crudo = blanco(q[p.nombre]) ? p.defecto : q[p.nombre]!;
      if (crudo === undefined) continue;
      if (p.nombre === "order") {
        const r = parsearOrden(crudo, p.terminos ?? []);
        if (r.ok) consulta.orden = r.valor;
        else fallar(p.nombre, r.mensaje);
      } else {
        const r = parsearFiltro(p.nombre, crudo);
        if (!r.ok) fallar(p.nombre, r.mensaje);
        else if (r.filtro) consulta.filtros.push(r.filtro);
      }
    }
    return consulta;
  }));
}

export type Acceso<T> = (fila: T, campo: string) => unknown;

/** Sorted copies of an immutable (frozen) list, per order, reused while that list is current. */
const ordenados = new WeakMap<readonly unknown[], Map<string, readonly unknown[]>>();

function ordenar<T>(filas: readonly T[], orden: readonly Orden[], acceso: Acceso<T>): readonly T[] {
  if (orden.length === 0) return filas;
  const clave = orden.map((o) => `${o.descendente ? "-" : "+"}${o.campo}`).join(",");
  const cache = Object.isFrozen(filas) ? ordenados.get(filas) ?? new Map<string, readonly unknown[]>() : undefined;
  const previo = cache?.get(clave);
  if (previo) return previo as readonly T[];
  const resultado = [...filas].sort((a, b) => {
    for (const o of orden) {
      const d = comparar(acceso(a, o.campo), acceso(b, o.campo));
      if (d !== 0) return o.descendente ? -d : d;
    }
    return 0;
  });
  if (cache) {
    cache.set(clave, Object.freeze(resultado));
    ordenados.set(filas, cache);
  }
  return resultado;
}

/**
 * Filters, orders and pages; `total` counts the matching records before paging. `fijo` is a
 * server-side condition the request cannot change (e.g. "active teachers only"); passing it here
 * instead of pre-filtering keeps `filas` the cached list, so its sorted copies are reused.
 */
export function aplicarConsulta<T>(filas: readonly T[], consulta: Consulta, acceso: Acceso<T>, fijo: (fila: T) => boolean = () => true): { pagina: T[]; total: number } {
  const ordenadas = ordenar(filas, consulta.orden, acceso);
  const coinciden = ordenadas.filter((fila) => fijo(fila) && consulta.filtros.every((f) => cumple(f, acceso(fila, f.campo))));
  if (consulta.limite === undefined) return { pagina: coinciden, total: coinciden.length };
  const desde = ((consulta.pagina ?? 1) - 1) * consulta.limite;
  return { pagina: coinciden.slice(desde, desde + consulta.limite), total: coinciden.length };
}
