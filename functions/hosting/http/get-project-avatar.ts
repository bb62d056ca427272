import { lambda } from "../../platform/http/lambda.js";
import { projectAvatar } from "./container-avatar.js";

export const endpoint = projectAvatar();
export const handler = lambda(endpoint);
