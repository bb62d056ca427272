import { lambda } from "../../platform/http/lambda.js";
import { block } from "./user-state.js";

export const endpoint = block;
export const handler = lambda(endpoint);
