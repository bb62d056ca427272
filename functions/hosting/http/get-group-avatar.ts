import { lambda } from "../../platform/http/lambda.js";
import { groupAvatar } from "./container-avatar.js";

export const endpoint = groupAvatar();
export const handler = lambda(endpoint);
