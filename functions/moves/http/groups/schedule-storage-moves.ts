import { lambda } from "../../../platform/http/lambda.js";
import { scheduleStorageMoves } from "../storage-endpoints.js";

export const endpoint = scheduleStorageMoves("group");
export const handler = lambda(endpoint);
