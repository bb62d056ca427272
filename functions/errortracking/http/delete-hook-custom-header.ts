import { lambda } from "../../platform/http/lambda.js";
import { deleteExtra } from "./hook-extras.js";

export const endpoint = deleteExtra("customHeaders");
export const handler = lambda(endpoint);
