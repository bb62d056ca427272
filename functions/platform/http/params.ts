/**
 * zod building blocks for request parameters. Query strings and form bodies carry strings, JSON bodies
 * carry typed values; these accept both spellings the way Grape does (`"5"` and `5`, `"true"` and `true`).
 */
import * as z from "zod/mini";

const integer = () => z.number().check(z.int());

export const int = () =>
  z.pipe(z.union([integer(), z.pipe(z.string().check(z.regex(/^-?\d+$/)), z.transform(Number))]), integer());

export const positiveInt = () => z.pipe(int(), z.number().check(z.int(), z.positive()));

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
  z.pipe(
    z.union([z.boolean(), z.literal(0), z.literal(1), z.string()]).check(z.refine((v) => grapeBoolean(v) !== undefined)),
    z.transform((v) => grapeBoolean(v)!),
  );

/** `:id` of a project/group: an integer id or a URL-encoded full path (`group%2Fproject`). */
export const idOrPath = () => z.string().check(z.minLength(1), z.maxLength(512));

export const pageQuery = {
  page: z.optional(positiveInt()),
  per_page: z.optional(positiveInt()),
};

/** Grape's `Array[Integer]` with GitLab's comma-separated coercion: `skip_groups=1,2`. */
export const commaSeparatedIds = () => z.pipe(z.string().check(z.regex(/^\d+(,\d+)*$/), z.maxLength(12_000)), z.transform((s) => s.split(",").map(Number)));

/**
 * The ids of an `Array[Integer]` query parameter in either spelling: comma-separated (`commaSeparatedIds`,
 * parsed with the query) or repeated with brackets, `skip_groups[]=1&skip_groups[]=2` (python-gitlab),
 * which `bracketed` (the request's values of `name[]`) holds.
 */
export function idArray(commaSeparated: number[] | undefined, bracketed: string[] | undefined): number[] {
  return [...(commaSeparated ?? []), ...z.parse(z.array(positiveInt()).check(z.maxLength(1000)), bracketed ?? [])];
}

/**
 * Grape reads these as `DateTime`: a date alone (`2022-01-01`, GitLab's own example), a time without
 * a zone (`2022-01-01T00:00:00`, read as UTC) or one with an offset.
 */
export const dateTime = () => z.union([z.iso.date(), z.iso.datetime({ offset: true, local: true })]);
/** A date alone is UTC midnight in JavaScript already; a zoneless time is made UTC, as Ruby reads it. */
export const dateTimeToIso = (v: string | undefined) =>
  v === undefined ? undefined : new Date(v.length === 10 || /(?:[zZ]|[+-]\d\d:?\d\d)$/.test(v) ? v : `${v}Z`).toISOString();
