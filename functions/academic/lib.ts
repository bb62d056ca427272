/**
 * What an institution's resource, data layer and permissions files import (the TypeScript
 * counterpart of `SIUToba\rest\…`): see `docs/academic-rest.md` for how to add a resource.
 */
export { hidratar, type modelable, type CampoModelo, type Modelo, type Modelos, type Registro } from "./domain/modelos.js";
export { validador, type Regla } from "./domain/validador.js";
export { rest, fabrica } from "./runtime/contexto.js";
export { rest_error, servicio_no_disponible, parametroInvalido } from "./domain/errores.js";
export { almacen_academico } from "./data/almacen.js";
export { usuarios_admin, usuarios_verificador, type RecursosUsuarios } from "./domain/permisos.js";
export type { UsuarioApi } from "./domain/usuarios.js";
