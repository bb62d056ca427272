import { lambda } from "../../platform/http/lambda.js";
import { activate } from "./user-moderation.js";

export const endpoint = activate();
export const handler = lambda(endpoint);
