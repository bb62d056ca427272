/**
 * What a handler reaches while it serves a request, like SIU's static `rest::request()` /
 * `rest::response()`: the request (body as JSON, query, path values), the response being built, the
 * release being served, the caller, the list query, and the data layer factory. It lives in an
 * AsyncLocalStorage scope opened by `runtime/ejecutar.ts`, so resource classes stay plain classes.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Release, Servicio } from "../domain/doc/tipos.js";
import type { Registro } from "../domain/modelos.js";
import type { Identidad } from "../domain/permisos.js";
import { aplicarConsulta, type Consulta } from "../domain/consulta.js";
import type { Respuesta } from "./respuesta.js";
import type { RegistroGenerado } from "./registro.js";

export interface Contexto {
  registro: RegistroGenerado;
  servicio: Servicio;
  release: Release;
  usuario: Identidad;
  params: Record<string, string>;
  query: Record<string, string>;
  consulta: Consulta;
  cuerpo: Registro | undefined;
  respuesta: Respuesta;
}

const alcance = new AsyncLocalStorage<Contexto>();

export const conContexto = <T>(ctx: Contexto, fn: () => T): T => alcance.run(ctx, fn);

function actual(): Contexto {
  const ctx = alcance.getStore();
  if (!ctx) throw new Error("rest.* and fabrica.* are only available while a service handles a request");
  return ctx;
}

export interface OpcionesConsulta<T> {
  /** How to read a filter or order field that is not a plain field of the record. */
  campos?: Record<string, (fila: T) => unknown>;
  /** A fixed server-side condition (the original's `agregar_campo_local`), e.g. active records only. */
  solo?: (fila: T) => boolean;
}

export const rest = {
  request: () => ({
    /** The request body, already validated against the service's `@param_body` model. */
    get_body_json: (): Registro | undefined => actual().cuerpo,
    /** A raw query string value. */
    get: (nombre: string): string | undefined => actual().query[nombre],
    /** A path value (`id_aula`). */
    get_param: (nombre: string): string | undefined => actual().params[nombre],
  }),
  response: (): Respuesta => actual().respuesta,
  /** `3.22` under `/rest/v2/`, `3.16` under `/rest/`. */
  release: (): Release => actual().release,
  usuario: (): Identidad => actual().usuario,
  /** The current service's `@summary` with `{id_name}` replaced by the path values. */
  resumen: (): string => resumenCon(actual().servicio.resumen, actual().params),
  /**
   * The list query (filters, order, limit, page) declared by the service's `@param_query` tags.
   * `aplicar` filters, orders and pages in memory and sets the `Cantidad-Registros` header (the
   * number of matching records before paging).
   */
  consulta: <T extends Registro>(opciones: OpcionesConsulta<T> = {}) => ({
    aplicar(filas: readonly T[]): T[] {
      const ctx = actual();
      const campos = opciones.campos ?? {};
      const acceso = (fila: T, campo: string) => (Object.hasOwn(campos, campo) ? campos[campo]!(fila) : Object.hasOwn(fila, campo) ? fila[campo] : undefined);
      const { pagina, total } = aplicarConsulta(filas, ctx.consulta, acceso, opciones.solo);
      ctx.respuesta.add_headers({ "Cantidad-Registros": String(total) });
      return pagina;
    },
  }),
};

export function resumenCon(resumen: string, params: Record<string, string>): string {
  return resumen.replace(/\{(\w+)\}/g, (marca, nombre: string) => params[nombre] ?? marca);
}

/** The application's REST factory: data layers by name (`fabrica.rest<rest_aulas_uni>("rest_aulas_uni")`). */
export const fabrica = {
  rest<T extends object>(nombre: string): T {
    const Clase = actual().registro.capas[nombre];
    if (!Clase) throw new Error(`No existe la capa de datos '${nombre}'`);
    return new Clase() as T;
  },
};
