/**
 * From a resource class (and the vendor classes it extends) to its services: each public handler with
 * a doc comment whose first line agrees with the handler's name. Inherited services are kept (they
 * cannot be removed), routed under the derived resource's segment; an override without a comment
 * keeps the parent's documentation.
 */
import { relative } from "node:path";
import { parsearComentario } from "../domain/doc/parser.js";
import { patronDePermiso } from "../domain/permisos.js";
import type { Metodo, Servicio } from "../domain/doc/tipos.js";
import type { ClaseAnalizada, MetodoAnalizado } from "./analizar.js";

export interface ErrorBuild {
  /** Absolute path. */
  archivo: string;
  linea: number;
  mensaje: string;
}

/** `recurso_aulas_uni` → `aulas-uni`. */
export const segmentoDeClase = (clase: string) => clase.replace(/^recurso_/, "").replace(/_/g, "-");

interface Forma {
  metodo: Metodo;
  sub?: string;
  lista: boolean;
}

/** `get_list`, `post_list`, `get`, `put`, `delete`, `get_<sub>_list`; undefined for other names. */
export function formaDeHandler(nombre: string): Forma | undefined {
  const lista = nombre.endsWith("_list");
  const base = lista ? nombre.slice(0, -"_list".length) : nombre;
  const m = /^(get|post|put|delete)(?:_([a-z0-9]+(?:_[a-z0-9]+)*))?$/.exec(base);
  if (!m || (m[2] && !lista)) return undefined;
  return { metodo: m[1]!.toUpperCase() as Metodo, lista, ...(m[2] ? { sub: m[2] } : {}) };
}

export const pareceHandler = (m: MetodoAnalizado) => m.publico && !m.estatico && /^(get|post|put|delete)(_|$)/.test(m.nombre);

function rutaEsperada(forma: Forma, segmento: string): string {
  if (forma.sub) return `/${segmento}/{<id_name>}/${forma.sub.replace(/_/g, "-")}`;
  return forma.lista ? `/${segmento}` : `/${segmento}/{<id_name>}`;
}

function servicioDeMetodo(clase: ClaseAnalizada, metodo: MetodoAnalizado, raiz: string, errores: ErrorBuild[]): Servicio | undefined {
  const archivo = relative(raiz, clase.archivo);
  const fallar = (linea: number, mensaje: string) => (errores.push({ archivo: clase.archivo, linea, mensaje }), undefined);
  const forma = formaDeHandler(metodo.nombre);
  if (!forma) {
    return fallar(metodo.linea, `public method ${metodo.nombre} looks like a service handler, but handlers are named <verb>_list, <verb>, or <verb>_<sub>_list (verb: get, post, put, delete); make it protected or rename it`);
  }
  if (!metodo.comentario) return fallar(metodo.linea, `service handler ${metodo.nombre} has no doc comment (its first line must be "${forma.metodo} ${rutaEsperada(forma, segmentoDeClase(clase.nombre))}")`);
  const r = parsearComentario(metodo.comentario.texto, metodo.comentario.linea);
  if (!r.ok) {
    for (const e of r.errores) fallar(e.linea, e.mensaje);
    return undefined;
  }
  const doc = r.doc;
  const segmento = segmentoDeClase(clase.nombre);
  const esperada = rutaEsperada(forma, segmento);
  const subDoc = doc.subcoleccion?.replace(/-/g, "_");
  const coincide = doc.metodo === forma.metodo && doc.coleccion === segmento && doc.ids.length === (forma.lista && !forma.sub ? 0 : 1) && subDoc === forma.sub;
  if (!coincide) return fallar(metodo.comentario.linea, `the first line "${doc.metodo} ${doc.ruta}" does not match handler ${metodo.nombre}, which serves "${forma.metodo} ${esperada}"`);
  if (metodo.parametros !== doc.ids.length) {
    return fallar(metodo.linea, `handler ${metodo.nombre} takes ${metodo.parametros} parameter(s) but its route ${doc.ruta} has ${doc.ids.length} path value(s)`);
  }
  return { ...doc, handler: metodo.nombre, permiso: patronDePermiso(doc.ruta), origen: { archivo, linea: metodo.comentario.linea, clase: clase.nombre }, heredado: false };
}

/** Services of the last class of `cadena` (base class first). */
export function serviciosDeCadena(cadena: readonly ClaseAnalizada[], raiz: string, errores: ErrorBuild[]): Servicio[] {
  const porHandler = new Map<string, Servicio>();
  for (const clase of cadena) {
    for (const metodo of clase.metodos.filter(pareceHandler)) {
      if (!metodo.comentario && porHandler.has(metodo.nombre)) continue; // override keeps the parent's doc
      const s = servicioDeMetodo(clase, metodo, raiz, errores);
      if (s) porHandler.set(metodo.nombre, s);
    }
  }
  const final = cadena[cadena.length - 1]!;
  const segmento = segmentoDeClase(final.nombre);
  return [...porHandler.values()]
    .map((s) => {
      const ruta = `/${segmento}${s.ruta.slice(s.coleccion.length + 1)}`;
      return { ...s, ruta, coleccion: segmento, permiso: patronDePermiso(ruta), heredado: s.origen.clase !== final.nombre };
    })
    // Code-unit order, not localeCompare: the generated files must not depend on the machine's locale.
    .sort((a, b) => (a.ruta === b.ruta ? (a.metodo < b.metodo ? -1 : 1) : a.ruta < b.ruta ? -1 : 1));
}
