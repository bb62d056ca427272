/** The HTML index (`/rest/v2`, `/rest`) and the Swagger 2.0 documents (`/rest/v2/api-docs`, `/rest/api-docs`). */
import "./errores.js";
import { lambda } from "../../platform/http/lambda.js";
import { registro } from "../generated/registro.js";
import { endpointDeDocumentacion } from "./endpoints.js";

export const endpoint = endpointDeDocumentacion(registro);
export const handler = lambda(endpoint);
