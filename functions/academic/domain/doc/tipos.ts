/**
 * What `pers_autoload` learns from the customization folder and writes to the generated registry:
 * resources, their services (one per documented handler) and where each was declared.
 */
export type Metodo = "GET" | "POST" | "PUT" | "DELETE";
export const METODOS: readonly Metodo[] = ["GET", "POST", "PUT", "DELETE"];

/** Query parameter names with fixed meaning; every other query parameter is a filter. */
export const PARAMETROS_ESPECIALES = ["order", "limit", "page"] as const;

export interface ParamQuery {
  nombre: string;
  /** As written (`string`, `integer`, `filter`, …); absent when the comment gave none. */
  tipo?: string;
  /** From `(defecto: …)`. */
  defecto?: string;
  /** From `[…]`: for `order`, the fields that may be ordered by; for others, documentation only. */
  terminos?: string[];
  descripcion: string;
}

export interface ParamBody {
  nombre: string;
  modelo: string;
  requerido: boolean;
  descripcion: string;
}

export interface Respuesta {
  estado: number;
  descripcion: string;
  /** `{"$ref":"X"}` → `{ modelo: "X", arreglo: false }`; `array {"$ref":"X"}` → `arreglo: true`. */
  esquema?: { modelo: string; arreglo: boolean };
}

/** A parsed doc comment (the part that does not depend on the handler it sits on). */
export interface DocServicio {
  metodo: Metodo;
  /** As written on the first line: `/aulas-uni/{id_aula}`. */
  ruta: string;
  coleccion: string;
  /** Names of the path parameters in order (`["id_aula"]`). */
  ids: string[];
  subcoleccion?: string;
  resumen: string;
  notas: string;
  cuerpo?: ParamBody;
  query: ParamQuery[];
  respuestas: Respuesta[];
}

export interface Origen {
  /** Path relative to the project root, e.g. `rest/v2/aulas_uni/recurso_aulas_uni.ts`. */
  archivo: string;
  linea: number;
  clase: string;
}

export interface Servicio extends DocServicio {
  handler: string;
  /** Permissions-file pattern: the route without `/`, ids written `id` (`aulas-uni/id`). */
  permiso: string;
  /** Where the doc comment was written (the vendor class for an inherited service). */
  origen: Origen;
  heredado: boolean;
}

export interface Recurso {
  /** Public URL segment: `aulas-uni`. */
  segmento: string;
  clase: string;
  archivo: string;
  descripcion: string;
  vendor: boolean;
  /** The vendor class it extends, for a derived resource. */
  extiende?: string;
  servicios: Servicio[];
}

export type Release = "3.22" | "3.16";

export const BASES: Record<Release, string> = { "3.22": "/rest/v2", "3.16": "/rest" };

/** `/rest/v2/aulas-uni/:id` → `3.22`; `/rest/aulas-uni` → `3.16`. */
export function releaseDe(path: string): Release {
  return path === BASES["3.22"] || path.startsWith(`${BASES["3.22"]}/`) ? "3.22" : "3.16";
}

/** `/aulas-uni/{id_aula}` → `/aulas-uni/:id_aula` (Hono's syntax, used by the route table). */
export const rutaHono = (ruta: string) => ruta.replace(/\{(\w+)\}/g, ":$1");
