import { lambda } from "../../platform/http/lambda.js";
import { listWikiPages } from "./wiki-endpoints.js";

export const endpoint = listWikiPages("project");
export const handler = lambda(endpoint);
