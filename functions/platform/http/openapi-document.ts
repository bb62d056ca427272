/**
 * The finished OpenAPI document. Here it is built from the route modules' sources on first use;
 * a Lambda bundle has no route modules to import, so `npm run build` swaps this module for one that
 * returns the document it built the same way (`local/isolated/bundle.ts`, `openApiDocumentPlugin`).
 */
import type { Endpoint } from "./endpoint.js";
import { buildOpenApi } from "./openapi.js";

export function openApiDocument(): Promise<unknown> {
  return buildOpenApi((module) => {
    // Route modules sit two folders up from here; the path is a variable, so no bundler rewriting.
    const url = new URL(`../../${module}.ts`, import.meta.url).href;
    return import(/* @vite-ignore */ url) as Promise<{ endpoint?: Endpoint }>;
  });
}
