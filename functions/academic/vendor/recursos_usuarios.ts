/**
 * Permissions of the vendor's own services. The institution's `rest/recursos_usuarios.ts` is applied
 * after this file, so it may replace any entry.
 */
import { usuarios_admin, type RecursosUsuarios } from "../domain/permisos.js";

export const recursos_usuarios: RecursosUsuarios = {
  docentes: { GET: { usuarios: [...usuarios_admin] } },
  "docentes/id": { GET: { usuarios: [...usuarios_admin] } },
  "docentes/id/comisiones": { GET: { usuarios: [...usuarios_admin] } },
};
