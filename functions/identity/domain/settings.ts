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

export async function storageWeights(): Promise<Weights> {
  const item = await getItem<{ repository_storages_weighted?: Weights }>(settingsKey.pk, settingsKey.sk);
  const stored = item?.repository_storages_weighted ?? {};
  const names = storageNames();
  // GitLab's default: `default` weighted 100, every other storage 0 (an instance without a storage
  // called `default` weights its first, or it could create nothing). Only configured storages count:
  // a storage removed from the config loses its weight.
  const first = names.includes("default") ? "default" : names[0];
  return Object.fromEntries(names.map((n) => [n, Object.hasOwn(stored, n) ? stored[n]! : n === first ? 100 : 0]));
}

export async function saveStorageWeights(weights: Weights): Promise<Weights> {
  const merged = { ...(await storageWeights()), ...weights };
  await updateItem({ ...settingsKey, update: "SET repository_storages_weighted = :w", values: { ":w": merged } });
  return merged;
}

interface OutboundItem {
  allow_local_requests_from_web_hooks_and_services?: boolean;
  outbound_local_requests_whitelist?: string[];
}

/** The outbound filter's settings (GitLab's defaults: local requests refused, empty allowlist). */
export async function outboundPolicy(): Promise<OutboundPolicy> {
  const item = await getItem<OutboundItem>(settingsKey.pk, settingsKey.sk);
  return { allowLocal: item?.allow_local_requests_from_web_hooks_and_services ?? false, allowlist: item?.outbound_local_requests_whitelist ?? [] };
}

export async function saveOutboundPolicy(change: Partial<OutboundPolicy>): Promise<OutboundPolicy> {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (change.allowLocal !== undefined) (sets.push("allow_local_requests_from_web_hooks_and_services = :a"), (values[":a"] = change.allowLocal));
  if (change.allowlist !== undefined) (sets.push("outbound_local_requests_whitelist = :l"), (values[":l"] = [...change.allowlist]));
  if (sets.length) await updateItem({ ...settingsKey, update: `SET ${sets.join(", ")}`, values });
  return outboundPolicy();
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

interface AccountItem {
  default_projects_limit?: number;
  signup_enabled?: boolean;
}

export async function accountSettings(): Promise<AccountSettings> {
  const item = await getItem<AccountItem>(settingsKey.pk, settingsKey.sk);
  return { defaultProjectsLimit: item?.default_projects_limit ?? 100_000, signupEnabled: item?.signup_enabled ?? false };
}

export async function saveAccountSettings(change: Partial<AccountSettings>): Promise<AccountSettings> {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (change.defaultProjectsLimit !== undefined) (sets.push("default_projects_limit = :p"), (values[":p"] = change.defaultProjectsLimit));
  if (change.signupEnabled !== undefined) (sets.push("signup_enabled = :s"), (values[":s"] = change.signupEnabled));
  if (sets.length) await updateItem({ ...settingsKey, update: `SET ${sets.join(", ")}`, values });
  return accountSettings();
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

export async function throttleSettings(): Promise<ThrottleRule> {
  const stored = (await getItem<{ throttle?: StoredThrottle }>(settingsKey.pk, settingsKey.sk))?.throttle;
  return { enabled: stored?.enabled ?? false, requestsPerPeriod: stored?.limit ?? 7200, periodInSeconds: stored?.period ?? 3600 };
}

export async function saveThrottleSettings(change: Partial<ThrottleRule>): Promise<ThrottleRule> {
  const rule = { ...(await throttleSettings()), ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
  const stored: StoredThrottle = { enabled: rule.enabled, limit: rule.requestsPerPeriod, period: rule.periodInSeconds };
  await updateItem({ ...settingsKey, update: "SET throttle = :t", values: { ":t": stored } });
  forgetThrottleSettings();
  return rule;
}

/**
 * The instance's default branch protection (`branch-protection.ts`): what a new project's default
 * branch gets unless its group says otherwise. Stored as `branchProtection`, the attribute a group
 * item keeps its own in too, so a project's creation reads both in one batch (`protected-refs.ts`).
 */
export async function branchProtectionSetting(): Promise<BranchProtection> {
  return (await getItem<{ branchProtection?: BranchProtection }>(settingsKey.pk, settingsKey.sk))?.branchProtection ?? FULL_PROTECTION;
}

export async function saveBranchProtection(p: BranchProtection): Promise<BranchProtection> {
  await updateItem({ ...settingsKey, update: "SET branchProtection = :p", values: { ":p": p } });
  return p;
}

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
  return pickWeighted(await storageWeights(), exclude);
}
