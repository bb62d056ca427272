import { defineEndpoint } from "./endpoint.js";
import { lambda } from "./lambda.js";
import { openApiDocument } from "./openapi-document.js";

let cached: unknown;

/** Public, like GitLab's own API docs; built once per process (in a bundle: at build time). */
export const endpoint = defineEndpoint({ summary: "OpenAPI document of this API", access: "public" }, async () => {
  cached ??= await openApiDocument();
  return cached;
});
export const handler = lambda(endpoint);
