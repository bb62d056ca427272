import { lambda } from "../../platform/http/lambda.js";
import { unban } from "./user-state.js";

export const endpoint = unban;
export const handler = lambda(endpoint);
