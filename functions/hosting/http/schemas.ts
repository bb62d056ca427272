/** Request schemas shared by the hosting routes. */
import { z } from "zod";
import { idOrPath, positiveInt } from "../../platform/http/params.js";

export const visibility = z.enum(["private", "internal", "public"]);
export const featureLevel = z.enum(["disabled", "private", "enabled"]);
export const projectParams = z.object({ id: idOrPath() });
export const groupParams = z.object({ id: idOrPath() });
export const memberParams = z.object({ id: idOrPath(), user_id: positiveInt() });
/** GitLab paths: letters, digits, `_`, `-`, `.`; not starting with `-`/`.`, not ending in `.git`/`.atom`. */
export const pathSegment = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/, "can contain only letters, digits, '_', '-' and '.'")
  .refine((p) => !/\.(git|atom)$/.test(p), "cannot end in .git or .atom");

export function slugify(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "").slice(0, 255) || "project";
}
