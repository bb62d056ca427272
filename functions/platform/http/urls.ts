import type { Context } from "hono";
import { instanceConfig } from "../config.js";
import { publicUrl } from "./pagination.js";

/** The instance's public origin (`https://host`), for `web_url`, DSNs and `Link` headers. */
export function baseUrl(c: Context): string {
  const configured = instanceConfig().externalUrl;
  if (configured) return configured.replace(/\/$/, "");
  return publicUrl(c).origin;
}
