import { lambda } from "../../platform/http/lambda.js";
import { reject } from "./user-moderation.js";

export const endpoint = reject();
export const handler = lambda(endpoint);
