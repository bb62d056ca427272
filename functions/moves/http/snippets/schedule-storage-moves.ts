import { lambda } from "../../../platform/http/lambda.js";
import { scheduleStorageMoves } from "../storage-endpoints.js";

export const endpoint = scheduleStorageMoves("snippet");
export const handler = lambda(endpoint);
