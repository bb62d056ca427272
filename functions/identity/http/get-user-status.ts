import { lambda } from "../../platform/http/lambda.js";
import { getUserStatus } from "./user-status.js";

export const endpoint = getUserStatus();
export const handler = lambda(endpoint);
