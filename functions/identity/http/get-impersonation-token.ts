import { lambda } from "../../platform/http/lambda.js";
import { get } from "./impersonation-tokens.js";

export const endpoint = get;
export const handler = lambda(endpoint);
