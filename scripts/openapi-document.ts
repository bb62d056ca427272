/**
 * Writes `functions/platform/http/generated/openapi-document.ts`, the OpenAPI document the OpenAPI
 * route serves, from the route modules (`functions/platform/http/openapi-document.ts`). `npm run
 * build`, isolated mode, the one-process server and the deploy write it themselves; this is for a
 * type check or an editor on a clean clone.
 *
 *   npx tsx scripts/openapi-document.ts
 */
import { relative } from "node:path";
import { writeOpenApiModule } from "../functions/platform/http/openapi-document.js";

const { file, written } = await writeOpenApiModule();
console.log(`openapi-document: ${relative(process.cwd(), file)} ${written ? "written" : "up to date"}`);
