import { lambda } from "../../../platform/http/lambda.js";
import { scheduleContainerStorageMove } from "../container-schedule.js";

export const endpoint = scheduleContainerStorageMove("snippet");
export const handler = lambda(endpoint);
