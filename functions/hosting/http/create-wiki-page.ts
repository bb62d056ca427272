import { lambda } from "../../platform/http/lambda.js";
import { createWikiPage } from "./wiki-endpoints.js";

export const endpoint = createWikiPage("group");
export const handler = lambda(endpoint);
