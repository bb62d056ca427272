/**
 * Application settings that matter here: `repository_storages_weighted`, with GitLab's semantics —
 * weights 0–100 per configured storage, a weighted random pick for each new repository (and for a
 * move without destination), and `default` when every weight is 0; and the outbound request
 * filter's two settings. Each save sets only its own attributes, so concurrent saves of different
 * settings never undo each other.
 */
import { getItem, updateItem } from "../../platform/db/table.js";
import type { OutboundPolicy } from "../../platform/outbound/policy.js";
import { storageNames } from "../../platform/config.js";
import { settingsKey } from "./keys.js";
import { forgetThrottleSettings, type StoredThrottle } from "./throttle.js";
import { FULL_PROTECTION, type BranchProtection } from "./branch-protection.js";

export type Weights = Record<string, number>;

/**
 * The settings item as stored (GitLab's attribute names where it has them). A request reads it once
 * (`readSettingsItem`) and each setting's view is a pure function of it; a save answers the item as
 * it left it (`updateItem` returns it whole).
 */
export interface SettingsItem {
  repository_storages_weighted?: Weights;
  allow_local_requests_from_web_hooks_and_services?: boolean;
  outbound_local_requests_whitelist?: string[];
  default_projects_limit?: number;
  signup_enabled?: boolean;
  throttle?: StoredThrottle;
  branchProtection?: BranchProtection;
}

export const readSettingsItem = () => getItem<SettingsItem>(settingsKey.pk, settingsKey.sk);

const saveSettings = async (update: string, values: Record<string, unknown>) => (await updateItem({ ...settingsKey, update, values })) as SettingsItem;

/**
 * The storages' weights: GitLab's default is `default` weighted 100, every other storage 0 (an
 * instance without a storage called `default` weights its first, or it could create nothing). Only
 * configured storages count: a storage removed from the config loses its weight.
 */
export function weightsOf(item: SettingsItem | undefined): Weights {
  const stored = item?.repository_storages_weighted ?? {};
  const names = storageNames();
  const first = names.includes("default") ? "default" : names[0];
  return Object.fromEntries(names.map((n) => [n, Object.hasOwn(stored, n) ? stored[n]! : n === first ? 100 : 0]));
}

export const storageWeights = async (): Promise<Weights> => weightsOf(await readSettingsItem());

/** Sets the weights given, the others kept as `item` (the settings as read) has them. */
export const saveStorageWeights = (weights: Weights, item: SettingsItem | undefined) =>
  saveSettings("SET repository_storages_weighted = :w", { ":w": { ...weightsOf(item), ...weights } });

/** The outbound filter's settings (GitLab's defaults: local requests refused, empty allowlist). */
export const outboundPolicyOf = (item: SettingsItem | undefined): OutboundPolicy => ({
  allowLocal: item?.allow_local_requests_from_web_hooks_and_services ?? false,
  allowlist: item?.outbound_local_requests_whitelist ?? [],
});

export const outboundPolicy = async (): Promise<OutboundPolicy> => outboundPolicyOf(await readSettingsItem());

/** Sets what `change` names; undefined when it names nothing. */
export async function saveOutboundPolicy(change: Partial<OutboundPolicy>): Promise<SettingsItem | undefined> {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (change.allowLocal !== undefined) (sets.push("allow_local_requests_from_web_hooks_and_services = :a"), (values[":a"] = change.allowLocal));
  if (change.allowlist !== undefined) (sets.push("outbound_local_requests_whitelist = :l"), (values[":l"] = [...change.allowlist]));
  return sets.length ? saveSettings(`SET ${sets.join(", ")}`, values) : undefined;
}

/**
 * Account settings GitLab administrators set: `default_projects_limit` (GitLab's default 100000, the
 * `projects_limit` GitLab gives new users) and `signup_enabled`. Both are stored and shown; neither
 * changes behaviour here — users have no `projects_limit`, and there is no self sign-up, which is
 * why `signup_enabled` reads false until set.
 */
export interface AccountSettings {
  defaultProjectsLimit: number;
  signupEnabled: boolean;
}

export const accountSettingsOf = (item: SettingsItem | undefined): AccountSettings => ({
  defaultProjectsLimit: item?.default_projects_limit ?? 100_000,
  signupEnabled: item?.signup_enabled ?? false,
});

/** Sets what `change` names; undefined when it names nothing. */
export async function saveAccountSettings(change: Partial<AccountSettings>): Promise<SettingsItem | undefined> {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (change.defaultProjectsLimit !== undefined) (sets.push("default_projects_limit = :p"), (values[":p"] = change.defaultProjectsLimit));
  if (change.signupEnabled !== undefined) (sets.push("signup_enabled = :s"), (values[":s"] = change.signupEnabled));
  return sets.length ? saveSettings(`SET ${sets.join(", ")}`, values) : undefined;
}

/**
 * GitLab's authenticated API rate limit (`throttle_authenticated_api_enabled`, `…_requests_per_period`,
 * `…_period_in_seconds`; GitLab's defaults: off, 7200 per 3600 s), enforced by `throttle.ts`. Stored
 * as one map, always whole, so the enforcement needs no defaults of its own.
 */
export interface ThrottleRule {
  enabled: boolean;
  requestsPerPeriod: number;
  periodInSeconds: number;
}

export const throttleRuleOf = (item: SettingsItem | undefined): ThrottleRule => ({
  enabled: item?.throttle?.enabled ?? false,
  requestsPerPeriod: item?.throttle?.limit ?? 7200,
  periodInSeconds: item?.throttle?.period ?? 3600,
});

/** Sets what `change` names, the rest kept as `item` (the settings as read) has it. */
export async function saveThrottleSettings(change: Partial<ThrottleRule>, item: SettingsItem | undefined): Promise<SettingsItem> {
  const rule = { ...throttleRuleOf(item), ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
  const stored: StoredThrottle = { enabled: rule.enabled, limit: rule.requestsPerPeriod, period: rule.periodInSeconds };
  const saved = await saveSettings("SET throttle = :t", { ":t": stored });
  forgetThrottleSettings();
  return saved;
}

/**
 * The instance's default branch protection (`branch-protection.ts`): what a new project's default
 * branch gets unless its group says otherwise. Stored as `branchProtection`, the attribute a group
 * item keeps its own in too, so a project's creation reads both in one batch (`protected-refs.ts`).
 */
export const branchProtectionOf = (item: SettingsItem | undefined): BranchProtection => item?.branchProtection ?? FULL_PROTECTION;

export const branchProtectionSetting = async (): Promise<BranchProtection> => branchProtectionOf(await readSettingsItem());

export const saveBranchProtection = (p: BranchProtection) => saveSettings("SET branchProtection = :p", { ":p": p });

/**
 * `max_by { rand ** (1/w) }`: P(storage) = w / Σw. `exclude` removes candidates (a move never picks
 * its own source). Returns undefined when nothing can be picked.
 */
export function pickWeighted(weights: Weights, exclude: string[] = [], random = Math.random): string | undefined {
  const candidates = Object.entries(weights).filter(([name, w]) => w > 0 && !exclude.includes(name));
  if (candidates.length === 0) {
    return exclude.includes("default") || !storageNames().includes("default") ? undefined : "default";
  }
  let best: string | undefined;
  let bestScore = -1;
  for (const [name, w] of candidates) {
    const score = random() ** (1 / w);
    if (score > bestScore) [best, bestScore] = [name, score];
  }
  return best;
}

export async function pickStorage(exclude: string[] = []): Promise<string | undefined> {
  return pickWeighted(weightsOf(await readSettingsItem()), exclude);
}
