import { lambda } from "../../platform/http/lambda.js";
import { setExtra } from "./hook-extras.js";

export const endpoint = setExtra("customHeaders");
export const handler = lambda(endpoint);
