import { lambda } from "../../platform/http/lambda.js";
import { putPreferences } from "./user-preferences.js";

export const endpoint = putPreferences();
export const handler = lambda(endpoint);
