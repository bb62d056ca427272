import { lambda } from "../../../platform/http/lambda.js";
import { cancelStorageMoves } from "../bulk-control-endpoints.js";

export const endpoint = cancelStorageMoves("snippet");
export const handler = lambda(endpoint);
