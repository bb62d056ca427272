/**
 * Permissions per service (the seed's `recursos_usuarios.php`): resource path pattern (element id
 * written `id`) → method → `usuarios`, built by merging the predefined groups. Every new or
 * customized service needs an entry here: a service without one is denied to everybody.
 */
import { usuarios_admin, usuarios_verificador, type RecursosUsuarios } from "../functions/academic/lib.js";

export const recursos_usuarios: RecursosUsuarios = {
  "aulas-uni": {
    GET: { usuarios: [...usuarios_admin] },
    POST: { usuarios: [...usuarios_admin] },
  },
  "aulas-uni/id": {
    GET: { usuarios: [...usuarios_admin] },
  },
  "docentes-uni": {
    GET: { usuarios: [...usuarios_admin, ...usuarios_verificador] },
  },
  "docentes-uni/id": {
    GET: { usuarios: [...usuarios_admin, ...usuarios_verificador] },
    PUT: { usuarios: [...usuarios_admin, ...usuarios_verificador] },
    DELETE: { usuarios: [...usuarios_admin, ...usuarios_verificador] },
  },
  "docentes-uni/id/comisiones": {
    GET: { usuarios: [...usuarios_admin, ...usuarios_verificador] },
  },
};
