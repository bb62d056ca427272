import { lambda } from "../../platform/http/lambda.js";
import { archivingEndpoint } from "./archive-project.js";

export const endpoint = archivingEndpoint(false);
export const handler = lambda(endpoint);
