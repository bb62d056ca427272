/**
 * zod building blocks for request parameters. Query strings and form bodies carry strings, JSON bodies
 * carry typed values; these accept both spellings the way Grape does (`"5"` and `5`, `"true"` and `true`).
 */
import * as z from "zod";

export const int = () =>
  z.union([z.number().int(), z.string().regex(/^-?\d+$/).transform(Number)]).pipe(z.number().int());

export const positiveInt = () => int().pipe(z.number().int().positive());

export const bool = () =>
  z
    .union([z.boolean(), z.enum(["true", "false", "1", "0", "yes", "no"])])
    .transform((v) => v === true || v === "true" || v === "1" || v === "yes");

/** `:id` of a project/group: an integer id or a URL-encoded full path (`group%2Fproject`). */
export const idOrPath = () => z.string().min(1).max(512);

export const pageQuery = {
  page: positiveInt().optional(),
  per_page: positiveInt().optional(),
};
