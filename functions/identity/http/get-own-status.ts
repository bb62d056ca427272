import { lambda } from "../../platform/http/lambda.js";
import { getOwnStatus } from "./user-status.js";

export const endpoint = getOwnStatus();
export const handler = lambda(endpoint);
