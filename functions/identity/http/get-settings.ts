import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import type { OutboundPolicy } from "../../platform/outbound/policy.js";
import { accountSettings, branchProtectionSetting, outboundPolicy, storageWeights, throttleSettings, type AccountSettings, type ThrottleRule } from "../domain/settings.js";
import { levelOfProtection, protectionDefaults, type BranchProtection } from "../domain/branch-protection.js";

export const endpoint = defineEndpoint({ summary: "Application settings (admin)", access: "read", admin: true }, async () =>
  settingsView(await storageWeights(), await outboundPolicy(), await accountSettings(), await throttleSettings(), await branchProtectionSetting()),
);
export const handler = lambda(endpoint);

export function settingsView(weights: Record<string, number>, outbound: OutboundPolicy, account: AccountSettings, throttle: ThrottleRule, protection: BranchProtection) {
  return {
    default_projects_limit: account.defaultProjectsLimit,
    signup_enabled: account.signupEnabled,
    repository_storages_weighted: weights,
    // The pre-13.1 array form, still read by some clients: storages with a positive weight.
    repository_storages: Object.entries(weights)
      .filter(([, w]) => w > 0)
      .map(([name]) => name),
    allow_local_requests_from_web_hooks_and_services: outbound.allowLocal,
    outbound_local_requests_whitelist: outbound.allowlist,
    outbound_local_requests_allowlist_raw: outbound.allowlist.join("\n"),
    throttle_authenticated_api_enabled: throttle.enabled,
    throttle_authenticated_api_requests_per_period: throttle.requestsPerPeriod,
    throttle_authenticated_api_period_in_seconds: throttle.periodInSeconds,
    default_branch_protection: levelOfProtection(protection),
    default_branch_protection_defaults: protectionDefaults(protection),
  };
}
