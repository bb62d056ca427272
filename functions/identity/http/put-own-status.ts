import { lambda } from "../../platform/http/lambda.js";
import { setOwnStatus } from "./user-status.js";

export const endpoint = setOwnStatus("PUT");
export const handler = lambda(endpoint);
