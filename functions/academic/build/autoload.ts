/**
 * `pers_autoload`: discovers the resources of the customization folder and the vendor folder, parses
 * their doc comments, checks everything it can, and produces the generated route entries and registry.
 * Nothing is written here: the CLI (`scripts/pers_autoload.ts`) writes or compares the files.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Recurso } from "../domain/doc/tipos.js";
import { analizarArchivo, buscarClase, camposDeConsulta, olvidarFuentes, type ClaseAnalizada } from "./analizar.js";
import { descubrir, type ArchivoRecurso, type Descubierto } from "./descubrir.js";
import { archivoDeRegistro, archivoDeRutas } from "./generar.js";
import { serviciosDeCadena, type ErrorBuild } from "./servicios.js";
import { verificarEnEjecucion } from "./verificar.js";

export interface OpcionesAutoload {
  /** Project root (paths in metadata and messages are relative to it). */
  proyecto: string;
  /** Customization folder (default `<proyecto>/rest`). */
  raiz?: string;
  /** Vendor folder (default `<proyecto>/functions/academic/vendor`). */
  vendor?: string;
  /** Where the generated files go (default `<proyecto>/functions/academic/generated`). */
  salida?: string;
}

export interface ResultadoAutoload {
  errores: ErrorBuild[];
  avisos: string[];
  recursos: Recurso[];
  archivos: { ruta: string; contenido: string }[];
}

/** The class chain of a resource, base class first; the last one is the resource itself. */
function cadenaDe(r: ArchivoRecurso, d: Descubierto, errores: ErrorBuild[]): ClaseAnalizada[] | undefined {
  const clase = analizarArchivo(r.archivo).find((c) => c.nombre === r.clase);
  if (!clase) return void errores.push({ archivo: r.archivo, linea: 1, mensaje: `no class named ${r.clase} in this file` });
  if (!clase.exportada) return void errores.push({ archivo: r.archivo, linea: clase.linea, mensaje: `class ${r.clase} must be exported` });
  const cadena = [clase];
  for (let actual = clase; actual.extiende; ) {
    const padre = buscarClase(actual.extiende, actual.archivo);
    if (!padre) return void errores.push({ archivo: actual.archivo, linea: actual.linea, mensaje: `cannot find the class ${actual.extiende} that ${actual.nombre} extends (import it from the vendor folder)` });
    if (!d.recursos.some((x) => x.archivo === padre.archivo && x.clase === padre.nombre)) {
      return void errores.push({ archivo: actual.archivo, linea: actual.linea, mensaje: `${actual.nombre} extends ${padre.nombre}, which is not a resource (recurso_<name> in a resource folder)` });
    }
    cadena.unshift(padre);
    actual = padre;
  }
  const base = cadena[0]!;
  if (!base.implementa.includes("modelable") || !base.metodos.some((m) => m.nombre === "_get_modelos" && m.estatico)) {
    errores.push({ archivo: base.archivo, linea: base.linea, mensaje: `a new resource must implement modelable and have a static _get_modelos() returning its models` });
  }
  return cadena;
}

/** `fabrica.rest("rest_x")` calls must name a data layer that exists. */
function verificarFabricas(archivo: string, capas: Set<string>, errores: ErrorBuild[]) {
  const texto = readFileSync(archivo, "utf8");
  for (const m of texto.matchAll(/fabrica\.rest(?:<[^>()]*>)?\(\s*["'`](\w+)["'`]/g)) {
    if (!capas.has(m[1]!)) {
      const linea = texto.slice(0, m.index).split("\n").length;
      errores.push({ archivo, linea, mensaje: `fabrica.rest("${m[1]}"): no data layer named ${m[1]} (expected v2/modelos/${m[1]}.ts)` });
    }
  }
}

export async function autoload(opciones: OpcionesAutoload): Promise<ResultadoAutoload> {
  olvidarFuentes();
  const proyecto = opciones.proyecto;
  const raiz = opciones.raiz ?? join(proyecto, "rest");
  const salida = opciones.salida ?? join(proyecto, "functions", "academic", "generated");
  const errores: ErrorBuild[] = [];
  const avisos: string[] = [];
  const d = descubrir(raiz, opciones.vendor ?? join(proyecto, "functions", "academic", "vendor"), errores);
  const capas = new Set(d.capas.map((c) => c.nombre));
  const recursos: Recurso[] = [];
  const lineaModelos = new Map<string, number>();
  const calculados = new Map<string, Set<string>>();
  for (const r of d.recursos) {
    verificarFabricas(r.archivo, capas, errores);
    const cadena = cadenaDe(r, d, errores);
    if (!cadena) continue;
    const clase = cadena[cadena.length - 1]!;
    const modelos = [...cadena].reverse().flatMap((c) => c.metodos).find((m) => m.nombre === "_get_modelos");
    if (modelos) lineaModelos.set(r.segmento, modelos.linea);
    calculados.set(r.segmento, new Set(cadena.flatMap((c) => camposDeConsulta(c.archivo))));
    recursos.push({
      segmento: r.segmento,
      clase: r.clase,
      archivo: relative(proyecto, r.archivo),
      descripcion: clase.descripcion,
      vendor: r.vendor,
      ...(cadena.length > 1 ? { extiende: cadena[cadena.length - 2]!.nombre } : {}),
      servicios: serviciosDeCadena(cadena, proyecto, errores),
    });
  }
  for (const c of d.capas) {
    const clase = analizarArchivo(c.archivo).find((x) => x.nombre === c.nombre);
    if (!clase?.exportada) errores.push({ archivo: c.archivo, linea: clase?.linea ?? 1, mensaje: `expected an exported class ${c.nombre}` });
  }
  if (errores.length === 0) await verificarEnEjecucion(d, recursos, { proyecto, lineaModelos, calculados }, errores, avisos);
  const archivos =
    errores.length > 0
      ? []
      : [
          { ruta: join(salida, "routes.ts"), contenido: archivoDeRutas(salida, join(proyecto, "functions", "route-spec.ts"), recursos) },
          { ruta: join(salida, "registro.ts"), contenido: archivoDeRegistro(salida, join(proyecto, "functions", "academic", "runtime", "registro.ts"), d, recursos) },
        ];
  return { errores, avisos, recursos, archivos };
}
