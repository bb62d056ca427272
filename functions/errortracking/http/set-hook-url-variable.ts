import { lambda } from "../../platform/http/lambda.js";
import { setExtra } from "./hook-extras.js";

export const endpoint = setExtra("urlVariables");
export const handler = lambda(endpoint);
