import { lambda } from "../../platform/http/lambda.js";
import { getPreferences } from "./user-preferences.js";

export const endpoint = getPreferences();
export const handler = lambda(endpoint);
