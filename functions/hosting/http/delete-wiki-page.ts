import { lambda } from "../../platform/http/lambda.js";
import { deleteWikiPage } from "./wiki-endpoints.js";

export const endpoint = deleteWikiPage("group");
export const handler = lambda(endpoint);
