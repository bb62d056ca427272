import { lambda } from "../../../platform/http/lambda.js";
import { getStorageMove } from "../storage-endpoints.js";

export const endpoint = getStorageMove("project");
export const handler = lambda(endpoint);
