import { lambda } from "../../../platform/http/lambda.js";
import { getStorageMoveExecution } from "../storage-endpoints.js";

export const endpoint = getStorageMoveExecution("project");
export const handler = lambda(endpoint);
