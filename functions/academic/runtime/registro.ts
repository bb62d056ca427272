/**
 * The registry `pers_autoload` generates (`generated/registro.ts`): the parsed metadata of every
 * resource and service, the resource and data layer classes (imported statically, so a Lambda bundle
 * needs no filesystem scan), and the permissions and users files. Derived views are computed once.
 */
import type { Recurso, Servicio } from "../domain/doc/tipos.js";
import type { ClaseModelable, Modelos } from "../domain/modelos.js";
import { fusionarPermisos, type RecursosUsuarios } from "../domain/permisos.js";
import type { UsuarioApi } from "../domain/usuarios.js";

export type ClaseRecurso = (new () => object) & Partial<ClaseModelable>;

export interface RegistroGenerado {
  recursos: Recurso[];
  /** URL segment → resource class. */
  clases: Record<string, ClaseRecurso>;
  /** Data layer name → class (the institution's replaces the vendor's of the same name). */
  capas: Record<string, new () => object>;
  /** Vendor permissions first, then the institution's. */
  permisos: RecursosUsuarios[];
  usuarios: UsuarioApi[];
}

interface Derivado {
  modelos: Modelos;
  permisos: RecursosUsuarios;
  /** `GET /aulas-uni/:id_aula` → service. */
  porRuta: Map<string, { recurso: Recurso; servicio: Servicio }>;
}

const derivados = new WeakMap<RegistroGenerado, Derivado>();

function derivar(registro: RegistroGenerado): Derivado {
  let d = derivados.get(registro);
  if (d) return d;
  const modelos: Modelos = {};
  for (const recurso of registro.recursos) Object.assign(modelos, registro.clases[recurso.segmento]?._get_modelos?.() ?? {});
  const porRuta = new Map<string, { recurso: Recurso; servicio: Servicio }>();
  for (const recurso of registro.recursos) {
    for (const servicio of recurso.servicios) porRuta.set(`${servicio.metodo} ${servicio.ruta}`, { recurso, servicio });
  }
  d = { modelos, permisos: fusionarPermisos(registro.permisos), porRuta };
  derivados.set(registro, d);
  return d;
}

/** Every model of every resource (as the original's documentation merges them). */
export const modelosDe = (registro: RegistroGenerado) => derivar(registro).modelos;
export const permisosDe = (registro: RegistroGenerado) => derivar(registro).permisos;

/** The service for a method and a documented route (`/aulas-uni/{id_aula}`). */
export const servicioDe = (registro: RegistroGenerado, metodo: string, ruta: string) => derivar(registro).porRuta.get(`${metodo} ${ruta}`);

/** The models a resource's own `_get_modelos()` returns, falling back to all models. */
export function modelosDeRecurso(registro: RegistroGenerado, segmento: string): Modelos {
  return { ...modelosDe(registro), ...(registro.clases[segmento]?._get_modelos?.() ?? {}) };
}
