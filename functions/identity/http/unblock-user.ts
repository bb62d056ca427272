import { lambda } from "../../platform/http/lambda.js";
import { unblock } from "./user-state.js";

export const endpoint = unblock;
export const handler = lambda(endpoint);
