/** Any other path under `/rest/`: the index with a trailing slash, else 405 or a 404 envelope. */
import "./errores.js";
import { lambda } from "../../platform/http/lambda.js";
import { registro } from "../generated/registro.js";
import { endpointDeRespaldo } from "./endpoints.js";

export const endpoint = endpointDeRespaldo(registro);
export const handler = lambda(endpoint);
