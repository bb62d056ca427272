/**
 * Per-service permissions (the seed's `recursos_usuarios.php`): a resource path pattern — the route
 * without its leading `/`, the element id written literally as `id` — maps each method to a
 * `usuarios` list built by merging the predefined groups. **A service without an entry is denied.**
 *
 *   export const recursos_usuarios: RecursosUsuarios = {
 *     "aulas-uni":    { GET: { usuarios: [...usuarios_admin] } },
 *     "aulas-uni/id": { GET: { usuarios: [...usuarios_admin, ...usuarios_verificador] } },
 *   };
 *
 * A list may name groups (`@admin`, which is what `usuarios_admin` holds) or single API users.
 */
import * as z from "zod/mini";
import { METODOS, type Metodo } from "./doc/tipos.js";

/** Administrators (group `admin` in the users file). */
export const usuarios_admin: readonly string[] = ["@admin"];
/** Verifiers (group `verificador` in the users file). */
export const usuarios_verificador: readonly string[] = ["@verificador"];

export type RecursosUsuarios = Record<string, Partial<Record<Metodo, { usuarios: readonly string[] }>>>;

const patron = z.string().check(
  z.regex(/^[a-z0-9]+(-[a-z0-9]+)*(\/id(\/[a-z0-9]+(-[a-z0-9]+)*)?)?$/, "a path pattern like aulas-uni, aulas-uni/id or docentes-uni/id/comisiones"),
);
const entrada = z.strictObject({ usuarios: z.array(z.string().check(z.regex(/^@?[\w.-]+$/, "user or @group names"))) });

export const esquemaRecursosUsuarios = z.record(
  patron,
  z.strictObject(Object.fromEntries(METODOS.map((m) => [m, z.optional(entrada)])) as Record<Metodo, z.ZodMiniOptional<typeof entrada>>),
);

/** `/aulas-uni/{id_aula}` → `aulas-uni/id`. */
export const patronDePermiso = (ruta: string) => ruta.replace(/^\//, "").replace(/\{\w+\}/g, "id");

/** The vendor's entries first, then the institution's: a later file replaces an entry it repeats. */
export function fusionarPermisos(archivos: readonly RecursosUsuarios[]): RecursosUsuarios {
  const fusion: RecursosUsuarios = {};
  for (const archivo of archivos) {
    for (const [ruta, metodos] of Object.entries(archivo)) fusion[ruta] = { ...fusion[ruta], ...metodos };
  }
  return fusion;
}

export interface Identidad {
  usuario: string;
  grupos: readonly string[];
}

export function tieneAcceso(quien: Identidad, permisos: RecursosUsuarios, patronRuta: string, metodo: Metodo): boolean {
  const permitidos = permisos[patronRuta]?.[metodo]?.usuarios;
  if (!permitidos) return false;
  return permitidos.includes(quien.usuario) || quien.grupos.some((g) => permitidos.includes(`@${g}`));
}
