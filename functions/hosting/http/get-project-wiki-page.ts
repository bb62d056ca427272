import { lambda } from "../../platform/http/lambda.js";
import { getWikiPage } from "./wiki-page-read.js";

export const endpoint = getWikiPage("project");
export const handler = lambda(endpoint);
