import * as z from "zod/mini";
import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { ADMIN_ASSETS } from "../assets/index.js";

/**
 * `GET /-/assets/admin/<name>`: the operator console's page modules, in a function of their own so
 * the pages' shared assets function stays small. They import the shared modules from `/-/assets/`.
 */
export const endpoint = defineEndpoint({ summary: "Console asset", access: "public", params: z.object({ name: z.string().check(z.maxLength(100)) }) }, async ({ c, params }) => {
  const asset = Object.hasOwn(ADMIN_ASSETS, params.name) ? ADMIN_ASSETS[params.name] : undefined;
  if (!asset) return c.text("Not found", 404);
  c.header("Cache-Control", "public, max-age=300");
  c.header("X-Content-Type-Options", "nosniff");
  return c.body(asset, 200, { "Content-Type": "text/javascript; charset=utf-8" });
});
export const handler = lambda(endpoint);
