import { lambda } from "../../../platform/http/lambda.js";
import { listContainerStorageMoves } from "../container-endpoints.js";

export const endpoint = listContainerStorageMoves("project");
export const handler = lambda(endpoint);
