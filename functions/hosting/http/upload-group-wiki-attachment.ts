import { lambda } from "../../platform/http/lambda.js";
import { uploadWikiAttachment } from "./wiki-attachments.js";

export const endpoint = uploadWikiAttachment("group");
export const handler = lambda(endpoint);
