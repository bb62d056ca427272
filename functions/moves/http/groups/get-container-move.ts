import { lambda } from "../../../platform/http/lambda.js";
import { getContainerStorageMove } from "../container-endpoints.js";

export const endpoint = getContainerStorageMove("group");
export const handler = lambda(endpoint);
