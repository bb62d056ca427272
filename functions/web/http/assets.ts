import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ASSETS } from "../assets/index.js";

/** `GET /-/assets/<name>`: the embedded stylesheet and page modules. Short cache: names carry no hash. */
export const endpoint = defineEndpoint({ summary: "Web asset", access: "public", params: z.object({ name: z.string().check(z.maxLength(100)) }) }, async ({ c, params }) => {
  const asset = Object.hasOwn(ASSETS, params.name) ? ASSETS[params.name] : undefined;
  if (!asset) return c.text("Not found", 404);
  c.header("Cache-Control", "public, max-age=300");
  c.header("X-Content-Type-Options", "nosniff");
  return c.body(asset.body, 200, { "Content-Type": asset.type });
});
export const handler = lambda(endpoint);
