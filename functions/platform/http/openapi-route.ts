import { defineEndpoint, type Endpoint } from "./endpoint.js";
import { lambda } from "./lambda.js";
import { buildOpenApi } from "./openapi.js";

let cached: unknown;

/** Public, like GitLab's own API docs; built once per process from the route table. */
export const endpoint = defineEndpoint({ summary: "OpenAPI document of this API", access: "public" }, async () => {
  cached ??= await buildOpenApi((module) => {
    // Route modules sit two folders up from here; the path is a variable, so no bundler rewriting.
    const url = new URL(`../../${module}.ts`, import.meta.url).href;
    return import(/* @vite-ignore */ url) as Promise<{ endpoint?: Endpoint }>;
  });
  return cached;
});
export const handler = lambda(endpoint);
