/**
 * Project error tracking settings (GitLab `project_error_tracking_settings`, reference B.1/B.2).
 *
 * The integrated backend (this service stores the errors) is offered only when the instance's
 * offering is `hosted`; elsewhere enabling it is a clear 400 (GitLab answers 404 while its
 * `integrated_error_tracking` flag is off). Enabling it with no active client key creates one
 * (GitLab's `after_save :create_client_key!`).
 */
import { getItem, putItem } from "../../platform/db/table.js";
import { badRequest, notFound, validationError } from "../../platform/http/errors.js";
import { instanceConfig, type InstanceConfig } from "../../platform/config.js";
import { settingKey, type ErrorTrackingSetting } from "./contracts.js";
import { createClientKey, hasActiveKey } from "./client-keys.js";

export const integratedOffered = (config: InstanceConfig = instanceConfig()) => config.offering === "hosted";

export async function findSetting(projectId: number): Promise<ErrorTrackingSetting | undefined> {
  const key = settingKey(projectId);
  return getItem<ErrorTrackingSetting>(key.pk, key.sk);
}

/**
 * True when this service stores and shows the project's errors. The offering gates turning it on
 * (`saveSetting`), not a setting already on: ingest applies the same rule (`enabled && integrated`),
 * so the collector, the consumer and the reads always agree on a project.
 */
export const integratedEnabled = (s: ErrorTrackingSetting | undefined) => !!s && s.enabled && s.integrated;

/**
 * PATCH (`create: false`: 404 without a setting) and PUT (`create: true`). `integrated` undefined
 * keeps the stored value (PATCH without it).
 */
export async function saveSetting(
  projectId: number,
  change: { active: boolean; integrated?: boolean },
  opts: { create: boolean; config?: InstanceConfig },
): Promise<ErrorTrackingSetting> {
  const existing = await findSetting(projectId);
  if (!existing && !opts.create) throw notFound("Error Tracking Setting");
  const base: ErrorTrackingSetting = existing ?? { projectId, enabled: false, integrated: false, apiUrl: null, projectName: null, organizationName: null };
  const next: ErrorTrackingSetting = { ...base, enabled: change.active, integrated: change.integrated ?? base.integrated };
  if (next.enabled && next.integrated && !integratedOffered(opts.config)) {
    throw badRequest("integrated error tracking is available only on the hosted offering; use a third-party Sentry backend (integrated=false)");
  }
  // A third-party backend needs its API URL and token (GitLab validation), which only the UI sets.
  if (next.enabled && !next.integrated && (!next.apiUrl || !next.tokenCiphertext)) {
    throw validationError({ api_url: ["is a required field"], token: ["is a required field"] });
  }
  await putItem({ ...settingKey(projectId), type: "etsetting", ...next });
  if (integratedEnabled(next) && !(await hasActiveKey(projectId))) await createClientKey(projectId);
  return next;
}

/** `sentry_external_url` = `api_url` without `api/0/projects/` (GitLab B.1). */
export function sentryExternalUrl(s: ErrorTrackingSetting): string | null {
  return s.apiUrl ? s.apiUrl.replace(/api\/0\/projects\/+/, "") : null;
}

/** `Entities::ErrorTracking::ProjectSetting`. */
export function settingEntity(s: ErrorTrackingSetting) {
  return { active: s.enabled, project_name: s.projectName, sentry_external_url: sentryExternalUrl(s), api_url: s.apiUrl, integrated: s.integrated };
}
