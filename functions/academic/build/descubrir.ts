/**
 * Where things live (the seed's 3.22 layout, in TypeScript):
 *
 *   <root>/v2/<name>_<inst>/recurso_<name>_<inst>.ts   resources
 *   <root>/v2/modelos/rest_<name>[_<inst>].ts         data layers
 *   <root>/recursos_usuarios.ts                        permissions per service
 *   <root>/servidor_usuarios.ts                        API users (hashed secrets)
 *
 * `<root>` is the institution's customization folder (`rest/`) and, with the same layout under
 * `rest/`, the vendor folder (`functions/academic/vendor/`, no users file).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ErrorBuild } from "./servicios.js";

export interface ArchivoRecurso {
  segmento: string;
  clase: string;
  archivo: string;
  vendor: boolean;
}

export interface ArchivoCapa {
  nombre: string;
  archivo: string;
  vendor: boolean;
}

export interface Descubierto {
  recursos: ArchivoRecurso[];
  capas: ArchivoCapa[];
  /** Vendor's first, then the institution's. */
  permisos: string[];
  usuarios?: string;
}

/** Segments that would collide with the documentation routes or the 3.22 prefix under `/rest/`. */
export const SEGMENTOS_RESERVADOS = ["v2", "api-docs", "swagger-ui"];

function carpetas(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((d) => statSync(join(dir, d)).isDirectory()).sort() : [];
}

function recorrer(dirV2: string, vendor: boolean, errores: ErrorBuild[], out: Descubierto) {
  for (const dir of carpetas(dirV2)) {
    if (dir === "modelos") continue;
    const clase = `recurso_${dir}`;
    const archivo = join(dirV2, dir, `${clase}.ts`);
    if (!/^[a-z0-9]+(_[a-z0-9]+)*$/.test(dir)) {
      errores.push({ archivo: join(dirV2, dir), linea: 1, mensaje: `folder name "${dir}" must be lowercase words joined by "_" (e.g. aulas_uni)` });
    } else if (!existsSync(archivo)) {
      errores.push({ archivo: join(dirV2, dir), linea: 1, mensaje: `resource folder has no ${clase}.ts` });
    } else if (SEGMENTOS_RESERVADOS.includes(dir.replace(/_/g, "-"))) {
      errores.push({ archivo, linea: 1, mensaje: `"${dir}" is reserved (${SEGMENTOS_RESERVADOS.join(", ")})` });
    } else out.recursos.push({ segmento: dir.replace(/_/g, "-"), clase, archivo, vendor });
  }
  const modelos = join(dirV2, "modelos");
  if (existsSync(modelos)) {
    for (const f of readdirSync(modelos).filter((x) => /^rest_\w+\.ts$/.test(x)).sort()) {
      out.capas.push({ nombre: f.replace(/\.ts$/, ""), archivo: join(modelos, f), vendor });
    }
  }
}

export function descubrir(raiz: string, vendor: string, errores: ErrorBuild[]): Descubierto {
  const out: Descubierto = { recursos: [], capas: [], permisos: [] };
  if (!existsSync(join(raiz, "v2"))) errores.push({ archivo: raiz, linea: 1, mensaje: "customization folder has no v2/ folder" });
  recorrer(join(vendor, "rest", "v2"), true, errores, out);
  recorrer(join(raiz, "v2"), false, errores, out);
  for (const dir of [vendor, raiz]) {
    const f = join(dir, "recursos_usuarios.ts");
    if (existsSync(f)) out.permisos.push(f);
  }
  if (!existsSync(join(raiz, "recursos_usuarios.ts"))) {
    errores.push({ archivo: join(raiz, "recursos_usuarios.ts"), linea: 1, mensaje: "permissions file is missing: without it every service is denied" });
  }
  const usuarios = join(raiz, "servidor_usuarios.ts");
  if (existsSync(usuarios)) out.usuarios = usuarios;
  else errores.push({ archivo: usuarios, linea: 1, mensaje: "users file is missing (export const servidor_usuarios: UsuarioApi[] = [...])" });
  const vistos = new Map<string, string>();
  for (const r of out.recursos) {
    const previo = vistos.get(r.segmento);
    if (previo) errores.push({ archivo: r.archivo, linea: 1, mensaje: `resource /${r.segmento} is already defined by ${previo} (add the institution suffix: <name>_<inst>)` });
    vistos.set(r.segmento, r.archivo);
  }
  return out;
}
