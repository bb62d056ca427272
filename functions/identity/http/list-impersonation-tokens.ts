import { lambda } from "../../platform/http/lambda.js";
import { list } from "./impersonation-tokens.js";

export const endpoint = list;
export const handler = lambda(endpoint);
