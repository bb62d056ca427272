import { lambda } from "../../../platform/http/lambda.js";
import { scheduleStorageMoves } from "../storage-schedule.js";

export const endpoint = scheduleStorageMoves("group");
export const handler = lambda(endpoint);
