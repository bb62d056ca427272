import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, int } from "../../platform/http/params.js";
import { storageNames } from "../../platform/config.js";
import { paramError, validationError } from "../../platform/http/errors.js";
import { parseAllowEntry } from "../../platform/outbound/policy.js";
import {
  branchProtectionOf,
  readSettingsItem,
  saveAccountSettings,
  saveBranchProtection,
  saveOutboundPolicy,
  saveStorageWeights,
  saveThrottleSettings,
  type ThrottleRule,
} from "../domain/settings.js";
import { chosenProtection } from "../domain/branch-protection.js";
import { branchProtectionFields } from "./branch-protection-params.js";
import { settingsView } from "./get-settings.js";

const ALLOWLIST = "outbound_local_requests_whitelist";
/** GitLab's limit on allowlist entries. */
const MAX_ALLOWLIST = 1000;

/** GitLab's `outbound_local_requests_allowlist_raw` separators: commas, semicolons, whitespace. */
const splitRaw = (raw: string) => raw.split(/[,;\s]+/).filter(Boolean);
const rawList = () => z.pipe(z.string().check(z.maxLength(256 * MAX_ALLOWLIST)), z.transform(splitRaw));

/**
 * The JSON hash (`{"repository_storages_weighted":{"default":0,"fast":100}}`), or GitLab's bracket
 * form (`repository_storages_weighted[fast]=100`), which the platform's form parser nests the same
 * way; the outbound filter's `allow_local_requests_from_web_hooks_and_services` and its allowlist, as
 * an array (`outbound_local_requests_whitelist`, or `…[]=` in a form) or one string
 * (`outbound_local_requests_allowlist_raw`); `default_projects_limit` (an integer ≥ 0, as GitLab
 * validates it) and `signup_enabled`; the authenticated API throttle's `throttle_authenticated_api_*`;
 * new projects' default branch protection (`default_branch_protection`, `…_defaults`).
 * Only the settings given change.
 */
const settingsBody = z.object({
  repository_storages_weighted: z.optional(z.record(z.string(), z.pipe(int(), z.number().check(z.gte(0), z.lte(100))))),
  allow_local_requests_from_web_hooks_and_services: z.optional(bool()),
  outbound_local_requests_whitelist: z.optional(z.union([z.array(z.string().check(z.maxLength(255))), rawList()])),
  outbound_local_requests_allowlist_raw: z.optional(rawList()),
  // GitLab keeps it in a 4-byte integer column.
  default_projects_limit: z.optional(z.pipe(int(), z.number().check(z.lte(2_147_483_647)))),
  signup_enabled: z.optional(bool()),
  throttle_authenticated_api_enabled: z.optional(bool()),
  // GitLab integer columns.
  throttle_authenticated_api_requests_per_period: z.optional(z.pipe(int(), z.number().check(z.lte(2_147_483_647)))),
  throttle_authenticated_api_period_in_seconds: z.optional(z.pipe(int(), z.number().check(z.lte(2_147_483_647)))),
  ...branchProtectionFields,
});

/**
 * The throttle settings given, checked as GitLab's model validates them (`only_integer: true,
 * greater_than: 0`, answered in its body), or undefined when none is given.
 */
function throttleChange(body: z.output<typeof settingsBody>): Partial<ThrottleRule> | undefined {
  const change = {
    enabled: body.throttle_authenticated_api_enabled,
    requestsPerPeriod: body.throttle_authenticated_api_requests_per_period,
    periodInSeconds: body.throttle_authenticated_api_period_in_seconds,
  };
  const invalid = Object.fromEntries(
    (["requests_per_period", "period_in_seconds"] as const)
      .filter((field) => (body[`throttle_authenticated_api_${field}`] ?? 1) <= 0)
      .map((field) => [`throttle_authenticated_api_${field}`, ["must be greater than 0"]]),
  );
  if (Object.keys(invalid).length) throw validationError(invalid);
  return Object.values(change).some((v) => v !== undefined) ? change : undefined;
}

export const endpoint = defineEndpoint(
  { summary: "Update application settings (admin)", access: "write", admin: true, body: settingsBody },
  async ({ body }) => {
    const weights = body.repository_storages_weighted ?? {};
    const unknown = Object.keys(weights).filter((name) => !storageNames().includes(name));
    if (unknown.length) throw paramError(`repository_storages_weighted does not have a valid value (unknown storage: ${unknown.join(", ")})`);
    const list = body.outbound_local_requests_whitelist ?? body.outbound_local_requests_allowlist_raw;
    if (list) {
      if (list.length > MAX_ALLOWLIST) throw validationError({ [ALLOWLIST]: [`is too long (maximum is ${MAX_ALLOWLIST} entries)`] });
      const invalid = list.filter((entry) => !parseAllowEntry(entry));
      if (invalid.length) throw validationError({ [ALLOWLIST]: [`contains invalid entries: ${invalid.join(", ")}`] });
    }
    // GitLab's model validation (`numericality: { only_integer: true, greater_than_or_equal_to: 0 }`), in its body.
    if (body.default_projects_limit !== undefined && body.default_projects_limit < 0) throw validationError({ default_projects_limit: ["must be greater than or equal to 0"] });
    const throttles = throttleChange(body);
    const allowLocal = body.allow_local_requests_from_web_hooks_and_services;
    const account = { defaultProjectsLimit: body.default_projects_limit, signupEnabled: body.signup_enabled };
    // The settings item is read once; each save answers it as it left it, and the last is shown.
    let item = await readSettingsItem();
    const protection = chosenProtection(branchProtectionOf(item), body.default_branch_protection, body.default_branch_protection_defaults);
    if (Object.keys(weights).length) item = await saveStorageWeights(weights, item);
    if (allowLocal !== undefined || list) item = (await saveOutboundPolicy({ allowLocal, allowlist: list?.map((e) => e.trim()) })) ?? item;
    item = (await saveAccountSettings(account)) ?? item;
    if (throttles) item = await saveThrottleSettings(throttles, item);
    if (body.default_branch_protection !== undefined || body.default_branch_protection_defaults) item = await saveBranchProtection(protection);
    return settingsView(item);
  },
);
export const handler = lambda(endpoint);
