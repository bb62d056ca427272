import { lambda } from "../../platform/http/lambda.js";
import { create } from "./impersonation-tokens.js";

export const endpoint = create;
export const handler = lambda(endpoint);
