import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";

/** A 16×16 icon (a PNG inside an ICO container, which every browser reads), embedded in the bundle. */
const ICON = Buffer.from("AAABAAEAEBAAAAEAIABkAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAQAAAAEAgGAAAAH/P/YQAAACtJREFUeNpjMNRr/E8JZhh8Bvz69Qsvpp8BFHuB6mFAfwMGPgwGzoChl5kAngsxT2yyGU8AAAAASUVORK5CYII=", "base64");

/** `GET /favicon.ico`: browsers ask for it on every page; without it each page load logged a 404. */
export const endpoint = defineEndpoint({ summary: "Site icon", access: "public" }, async ({ c }) => {
  c.header("Cache-Control", "public, max-age=86400");
  c.header("X-Content-Type-Options", "nosniff");
  return c.body(new Uint8Array(ICON), 200, { "Content-Type": "image/x-icon" });
});
export const handler = lambda(endpoint);
