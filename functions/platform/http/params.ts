/**
 * zod building blocks for request parameters. Query strings and form bodies carry strings, JSON bodies
 * carry typed values; these accept both spellings the way Grape does (`"5"` and `5`, `"true"` and `true`).
 */
import * as z from "zod";

export const int = () =>
  z.union([z.number().int(), z.string().regex(/^-?\d+$/).transform(Number)]).pipe(z.number().int());

export const positiveInt = () => int().pipe(z.number().int().positive());

/**
 * Grape's `Boolean` coercion (dry-types `Params::Bool`), in any letter case: python-gitlab sends
 * `True`/`False`, curl users `true`/`1`, JSON bodies real booleans.
 */
const GRAPE_TRUE = new Set(["1", "on", "t", "true", "y", "yes"]);
const GRAPE_FALSE = new Set(["0", "off", "f", "false", "n", "no"]);

/** The boolean a parameter value spells, or undefined when it spells none. */
export function grapeBoolean(raw: unknown): boolean | undefined {
  if (typeof raw === "boolean") return raw;
  if (raw === 0 || raw === 1) return raw === 1;
  if (typeof raw !== "string") return undefined;
  const word = raw.trim().toLowerCase();
  return GRAPE_TRUE.has(word) ? true : GRAPE_FALSE.has(word) ? false : undefined;
}

export const bool = () =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1), z.string()])
    .refine((v) => grapeBoolean(v) !== undefined)
    .transform((v) => grapeBoolean(v)!);

/** `:id` of a project/group: an integer id or a URL-encoded full path (`group%2Fproject`). */
export const idOrPath = () => z.string().min(1).max(512);

export const pageQuery = {
  page: positiveInt().optional(),
  per_page: positiveInt().optional(),
};
