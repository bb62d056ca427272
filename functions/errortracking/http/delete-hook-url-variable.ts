import { lambda } from "../../platform/http/lambda.js";
import { deleteExtra } from "./hook-extras.js";

export const endpoint = deleteExtra("urlVariables");
export const handler = lambda(endpoint);
