import { gunzipSync } from "node:zlib";
import { defineEndpoint } from "./endpoint.js";
import { lambda } from "./lambda.js";

let cached: unknown;

/**
 * The document `openapi-document.ts` generated from the route modules. Imported on first use, not
 * at load: building the document loads this module too, before the generated one exists. The
 * path is a literal, so the bundle holds the generated module.
 */
async function generatedDocument(): Promise<unknown> {
  const { openApiDocumentGzipBase64 } = await import("./generated/openapi-document.js");
  return JSON.parse(gunzipSync(Buffer.from(openApiDocumentGzipBase64, "base64")).toString("utf8"));
}

/** Public, like GitLab's own API docs; unpacked once per process. */
export const endpoint = defineEndpoint({ summary: "OpenAPI document of this API", access: "public" }, async () => {
  cached ??= await generatedDocument();
  return cached;
});
export const handler = lambda(endpoint);
