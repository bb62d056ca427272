import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { storageInventory } from "../domain/inventory.js";

/**
 * Administrators only: per configured storage, the number and total size of the project, project
 * wiki, snippet and group wiki repositories on it. After moving every repository off a storage, all
 * its counts are 0. (Not a GitLab endpoint; GitLab needs a Rails console for this.)
 */
export const endpoint = defineEndpoint({ summary: "Repository inventory per storage (admin)", access: "read", admin: true }, async () => storageInventory());
export const handler = lambda(endpoint);
