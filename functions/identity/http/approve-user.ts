import { lambda } from "../../platform/http/lambda.js";
import { approve } from "./user-moderation.js";

export const endpoint = approve();
export const handler = lambda(endpoint);
