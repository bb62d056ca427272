import { lambda } from "../../platform/http/lambda.js";
import { disableTwoFactor } from "./user-moderation.js";

export const endpoint = disableTwoFactor();
export const handler = lambda(endpoint);
