import { lambda } from "../../platform/http/lambda.js";
import { restoreProject } from "./restore.js";

export const endpoint = restoreProject();
export const handler = lambda(endpoint);
