import { lambda } from "../../../platform/http/lambda.js";
import { cancelStorageMoves } from "../bulk-control-endpoints.js";

export const endpoint = cancelStorageMoves("group");
export const handler = lambda(endpoint);
