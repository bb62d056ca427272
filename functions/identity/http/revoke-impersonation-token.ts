import { lambda } from "../../platform/http/lambda.js";
import { revoke } from "./impersonation-tokens.js";

export const endpoint = revoke;
export const handler = lambda(endpoint);
