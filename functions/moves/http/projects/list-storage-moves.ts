import { lambda } from "../../../platform/http/lambda.js";
import { listStorageMoves } from "../storage-endpoints.js";

export const endpoint = listStorageMoves("project");
export const handler = lambda(endpoint);
