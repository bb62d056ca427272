import { lambda } from "../../platform/http/lambda.js";
import { listWikiPages } from "./wiki-endpoints.js";

export const endpoint = listWikiPages("group");
export const handler = lambda(endpoint);
