import { lambda } from "../../platform/http/lambda.js";
import { subgroupsEndpoint } from "./group-lists.js";

export const endpoint = subgroupsEndpoint(false);
export const handler = lambda(endpoint);
