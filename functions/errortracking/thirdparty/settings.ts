/**
 * The settings screen's third-party side: GitLab's `ListProjectsService` (the Connect button) and
 * saving a third-party setting (api_url from host + chosen project, the token encrypted). The
 * integrated side saves through `../domain/settings.ts`.
 */
import { putItem } from "../../platform/db/table.js";
import { outboundPolicy } from "../../identity/domain/settings.js";
import { checkOutboundUrl } from "../../platform/outbound/client.js";
import { BlockedUrlError } from "../../platform/outbound/policy.js";
import { ApiError, validationError } from "../../platform/http/errors.js";
import { settingKey, type ErrorTrackingSetting } from "../domain/contracts.js";
import { findSetting } from "../domain/settings.js";
import { TrackerError } from "./client.js";
import { decryptSecret, encryptSecret } from "./secret.js";
import { apiUrlFrom, listProjects, type TrackerProject } from "./sentry.js";

/** A token made only of `*` is the masked stored token (GitLab). */
export const isMasked = (token: string | undefined) => !!token && /^\*+$/.test(token);

/**
 * http(s) with a host, ASCII only, ≤ 255 characters once built into an api_url. Whether its address
 * may be reached is `allowedHost`'s question.
 */
export function checkHost(apiHost: string | undefined): string {
  const host = (apiHost ?? "").trim().replace(/\/+$/, "");
  let ok = false;
  try {
    const u = new URL(host);
    ok = (u.protocol === "http:" || u.protocol === "https:") && !!u.hostname && !u.username && !u.password && /^[\x20-\x7e]+$/.test(host);
  } catch {
    ok = false;
  }
  if (!host) throw validationError({ api_url: ["is a required field"] });
  if (!ok || apiUrlFrom(host, "org", "proj").length > 255) throw validationError({ api_url: ["is invalid"] });
  return host;
}

/**
 * `checkHost`, then the outbound filter (GitLab's `addressable_url` validation of `api_url`): a local
 * address without the administrator's permission is `{"message":{"api_url":["is blocked: …"]}}`.
 */
export async function allowedHost(apiHost: string | undefined): Promise<string> {
  const host = checkHost(apiHost);
  try {
    await checkOutboundUrl(apiUrlFrom(host, "org", "proj"), await outboundPolicy());
  } catch (err) {
    if (err instanceof BlockedUrlError) throw validationError({ api_url: [`is blocked: ${err.reason}`] });
    throw err;
  }
  return host;
}

async function tokenFor(projectId: number, token: string | undefined): Promise<string> {
  if (isMasked(token)) {
    const stored = (await findSetting(projectId))?.tokenCiphertext;
    if (stored) return decryptSecret(stored);
  }
  if (!token || isMasked(token)) throw validationError({ token: ["is a required field"] });
  return token;
}

/** `{projects: [...]}` or a GitLab `{message}` error (400; 500 when the tracker's answer lacks keys). */
export async function connectProjects(projectId: number, apiHost: string | undefined, token: string | undefined): Promise<{ projects: TrackerProject[] }> {
  const host = await allowedHost(apiHost);
  const plain = await tokenFor(projectId, token);
  try {
    return { projects: await listProjects(host, plain) };
  } catch (err) {
    if (err instanceof TrackerError) throw new ApiError(err.kind === "keys" ? 500 : 400, { message: err.message });
    throw err;
  }
}

export interface ThirdPartyChange {
  enabled: boolean;
  apiHost?: string;
  token?: string;
  project?: { slug: string; name: string; organization_slug: string; organization_name: string };
}

export async function saveThirdParty(projectId: number, change: ThirdPartyChange): Promise<ErrorTrackingSetting> {
  const existing = await findSetting(projectId);
  const base: ErrorTrackingSetting = existing ?? { projectId, enabled: false, integrated: false, apiUrl: null, projectName: null, organizationName: null };
  let apiUrl = base.apiUrl;
  let projectName = base.projectName;
  let organizationName = base.organizationName;
  if (change.project) {
    apiUrl = apiUrlFrom(await allowedHost(change.apiHost), encodeURIComponent(change.project.organization_slug), encodeURIComponent(change.project.slug));
    projectName = change.project.name;
    organizationName = change.project.organization_name;
  }
  let tokenCiphertext = base.tokenCiphertext ?? null;
  if (change.token && !isMasked(change.token)) tokenCiphertext = encryptSecret(change.token);
  // GitLab's `reset_token`: a new api_url without a new token drops the old token.
  else if (apiUrl !== base.apiUrl) tokenCiphertext = null;
  const missing: Record<string, string[]> = {};
  if (change.enabled && !apiUrl) missing.project = ["is a required field"];
  if (change.enabled && !tokenCiphertext) missing.token = ["is a required field"];
  if (Object.keys(missing).length) throw validationError(missing);
  const next: ErrorTrackingSetting = { ...base, enabled: change.enabled, integrated: false, apiUrl, projectName, organizationName, tokenCiphertext };
  await putItem({ ...settingKey(projectId), type: "etsetting", ...next });
  return next;
}
