/** Request parameters shared by the error-tracking routes. */
import * as z from "zod/mini";
import { grapeBoolean, idOrPath, positiveInt } from "../../platform/http/params.js";
import { paramError } from "../../platform/http/errors.js";

export const projectParams = z.object({ id: idOrPath() });
export const keyParams = z.object({ id: idOrPath(), key_id: positiveInt() });

/**
 * Required/optional booleans with Grape's messages: `x is missing`, `x is empty` (`allow_blank:
 * false`), `x is invalid`; the spellings are the platform's one coercion (`grapeBoolean`).
 */
export function grapeBooleans<K extends string>(body: Record<string, unknown>, spec: Record<K, "required" | "optional">): Record<K, boolean | undefined> {
  const errors: string[] = [];
  const out = {} as Record<K, boolean | undefined>;
  for (const [name, need] of Object.entries(spec) as Array<[K, "required" | "optional"]>) {
    const raw = body[name];
    if (raw === undefined || raw === null) {
      if (need === "required") errors.push(`${name} is missing`);
      continue;
    }
    const value = grapeBoolean(raw);
    if (value !== undefined) out[name] = value;
    else if (typeof raw === "string" && raw.trim() === "") errors.push(`${name} is empty`);
    else errors.push(`${name} is invalid`);
  }
  if (errors.length) throw paramError(errors.join(", "));
  return out;
}

/**
 * The project-scoped UI routes (`/:namespace/:project/-/error_tracking…`). API Gateway has no
 * multi-segment parameter short of a catch-all, so the route table (`../routes.ts`) lists one- and
 * two-level namespaces explicitly (`group/project`, `group/subgroup/project`); the parameter names are
 * the same at each position so both route shapes coexist on API Gateway.
 */
export const uiPathParams = {
  p1: z.string().check(z.minLength(1), z.maxLength(255)),
  p2: z.string().check(z.minLength(1), z.maxLength(255)),
  p3: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
};

export const projectPathOf = (p: { p1: string; p2: string; p3?: string }) => [p.p1, p.p2, p.p3].filter(Boolean).join("/");

/** `123` or `123.json` (the UI's PUT URL carries the format suffix in the id segment). */
export const issueIdParam = z.pipe(z.string().check(z.regex(/^\d{1,16}(\.json)?$/, "is invalid")), z.transform((s) => Number(s.replace(/\.json$/, ""))));
