import { lambda } from "../../../platform/http/lambda.js";
import { setStorageMovesConcurrency } from "../bulk-control-endpoints.js";

export const endpoint = setStorageMovesConcurrency("snippet");
export const handler = lambda(endpoint);
