/** Request schemas shared by the hosting routes. */
import * as z from "zod/mini";
import { bool, idOrPath, positiveInt } from "../../platform/http/params.js";
import { FEATURES, type Feature, type FeatureLevel } from "../domain/projects.js";
import { ACCESS_LEVELS } from "../domain/access.js";

export const visibility = z.enum(["private", "internal", "public"]);
export const featureLevel = z.enum(["disabled", "private", "enabled"]);
export const projectParams = z.object({ id: idOrPath() });
export const groupParams = z.object({ id: idOrPath() });
export const memberParams = z.object({ id: idOrPath(), user_id: positiveInt() });
/** One of GitLab's access levels, 10 (Guest) … 50 (Owner). */
export const accessLevel = () => z.pipe(positiveInt(), z.literal(ACCESS_LEVELS));

/** `issues_access_level`, `monitor_access_level`, …: every project feature setting, all optional. */
export const featureFields = Object.fromEntries(FEATURES.map((f) => [f, z.optional(featureLevel)])) as Record<Feature, z.ZodMiniOptional<typeof featureLevel>>;

/**
 * GitLab's older boolean form of some feature settings (`snippets_enabled: true`), still accepted
 * and still sent by clients such as python-gitlab: true is `enabled`, false `disabled`. A level given
 * for the same feature in the same request wins.
 */
const LEGACY_FLAGS = {
  issues_enabled: "issues_access_level",
  merge_requests_enabled: "merge_requests_access_level",
  wiki_enabled: "wiki_access_level",
  snippets_enabled: "snippets_access_level",
  jobs_enabled: "builds_access_level",
} as const satisfies Record<string, Feature>;
type LegacyFlag = keyof typeof LEGACY_FLAGS;
export const legacyFeatureFlags = Object.fromEntries(Object.keys(LEGACY_FLAGS).map((f) => [f, z.optional(bool())])) as Record<LegacyFlag, z.ZodMiniOptional<ReturnType<typeof bool>>>;

/** The feature settings a request actually set, levels and legacy flags alike. */
export function chosenFeatures(body: Partial<Record<Feature, FeatureLevel>> & Partial<Record<LegacyFlag, boolean>>): Partial<Record<Feature, FeatureLevel>> {
  const fromFlags = (Object.keys(LEGACY_FLAGS) as LegacyFlag[]).filter((f) => body[f] !== undefined).map((f) => [LEGACY_FLAGS[f], body[f] ? "enabled" : "disabled"]);
  return { ...Object.fromEntries(fromFlags), ...Object.fromEntries(FEATURES.filter((f) => body[f]).map((f) => [f, body[f]])) };
}
