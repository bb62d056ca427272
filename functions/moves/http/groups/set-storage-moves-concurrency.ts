import { lambda } from "../../../platform/http/lambda.js";
import { setStorageMovesConcurrency } from "../bulk-control-endpoints.js";

export const endpoint = setStorageMovesConcurrency("group");
export const handler = lambda(endpoint);
