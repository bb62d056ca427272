import { lambda } from "../../../platform/http/lambda.js";
import { listContainerStorageMoves } from "../container-endpoints.js";

export const endpoint = listContainerStorageMoves("snippet");
export const handler = lambda(endpoint);
