import { lambda } from "../../../platform/http/lambda.js";
import { getStorageMove } from "../storage-endpoints.js";

export const endpoint = getStorageMove("snippet");
export const handler = lambda(endpoint);
