import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { accountSettingsOf, branchProtectionOf, outboundPolicyOf, readSettingsItem, throttleRuleOf, weightsOf, type SettingsItem } from "../domain/settings.js";
import { levelOfProtection, protectionDefaults } from "../domain/branch-protection.js";

export const endpoint = defineEndpoint({ summary: "Application settings (admin)", access: "read", admin: true }, async () => settingsView(await readSettingsItem()));
export const handler = lambda(endpoint);

/** GitLab's settings entity, from the settings item as read (one read) or as a save left it. */
export function settingsView(item: SettingsItem | undefined) {
  const weights = weightsOf(item);
  const outbound = outboundPolicyOf(item);
  const account = accountSettingsOf(item);
  const throttle = throttleRuleOf(item);
  const protection = branchProtectionOf(item);
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
