import { lambda } from "../../platform/http/lambda.js";
import { restoreGroup } from "./restore.js";

export const endpoint = restoreGroup();
export const handler = lambda(endpoint);
