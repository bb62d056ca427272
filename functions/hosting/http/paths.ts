/**
 * The paths of new projects and groups. A module of its own: the schema is built when its module
 * loads, and only the routes that create a project or group (or a fork) have a use for it.
 */
import * as z from "zod/mini";

/** GitLab paths: letters, digits, `_`, `-`, `.`; not starting with `-`/`.`, not ending in `.git`/`.atom`. */
export const pathSegment = z.string().check(
  z.minLength(1),
  z.maxLength(255),
  z.regex(/^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/, "can contain only letters, digits, '_', '-' and '.'"),
  z.refine((p) => !/\.(git|atom)$/.test(p), "cannot end in .git or .atom"),
);

export function slugify(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "").slice(0, 255) || "project";
}
