import { lambda } from "../../platform/http/lambda.js";
import { ban } from "./user-state.js";

export const endpoint = ban;
export const handler = lambda(endpoint);
