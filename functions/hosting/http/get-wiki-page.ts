import { lambda } from "../../platform/http/lambda.js";
import { getWikiPage } from "./wiki-endpoints.js";

export const endpoint = getWikiPage("group");
export const handler = lambda(endpoint);
