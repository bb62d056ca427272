import { lambda } from "../../platform/http/lambda.js";
import { updateWikiPage } from "./wiki-endpoints.js";

export const endpoint = updateWikiPage("group");
export const handler = lambda(endpoint);
