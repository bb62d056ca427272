import { lambda } from "../../platform/http/lambda.js";
import { deactivate } from "./user-moderation.js";

export const endpoint = deactivate();
export const handler = lambda(endpoint);
