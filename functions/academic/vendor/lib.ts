/** The vendor resources and data layers an institution may extend. */
export { recurso_docentes } from "./rest/v2/docentes/recurso_docentes.js";
export { rest_docentes } from "./rest/v2/modelos/rest_docentes.js";
