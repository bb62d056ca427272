/** GitLab's error-tracking entities as this service fills them (reference B.3, B.8). */
import type { Context } from "hono";
import { baseUrl } from "../../platform/http/urls.js";
import { fullPathOf, type Project } from "../../hosting/domain/projects.js";
import type { ClientKeyRecord } from "../domain/contracts.js";
import { dsnOf } from "../domain/client-keys.js";
import type { ErrorItem, ReleaseHealth } from "../domain/errors.js";
import type { Frequency } from "../domain/frequency.js";

/**
 * Where SDKs send events. Locally the collector shares the API's origin; on AWS it is the ingest
 * function URL, which a deployment passes in `FORGELINE_INGEST_URL`.
 */
export const ingestBaseUrl = (c: Context) => process.env.FORGELINE_INGEST_URL || baseUrl(c);

/** `{id, active, public_key, sentry_dsn}`; `secret` only in the answer that creates the key. */
export function clientKeyEntity(c: Context, k: ClientKeyRecord, secret?: string) {
  const base = ingestBaseUrl(c);
  return {
    id: k.id,
    active: k.active,
    public_key: k.publicKey,
    sentry_dsn: dsnOf(base, k.publicKey, k.projectId),
    // The deprecated `public:secret@` form, for clients that demand a private key. Shown once.
    ...(secret ? { sentry_dsn_with_secret: dsnOf(base, k.publicKey, k.projectId, secret) } : {}),
  };
}

/** Sentry's style: `Type: value`; a message event is titled by its message. */
export const titleOf = (e: ErrorItem) => (e.type === "default" ? e.description || e.name : e.description ? `${e.name}: ${e.description}` : e.name);

/** `ErrorEntity` (the list); `frequency` is the error's events per hour over the last 24 hours. */
export function errorEntity(c: Context, project: Project, e: ErrorItem, frequency: Frequency) {
  const projectUrl = `${baseUrl(c)}/${fullPathOf(project)}`;
  return {
    id: String(e.errorId),
    title: titleOf(e),
    type: e.type,
    user_count: e.userCount ?? 0,
    count: e.eventsCount,
    first_seen: e.firstSeen,
    last_seen: e.lastSeen,
    message: e.description,
    culprit: e.actor,
    external_url: `${projectUrl}/-/error_tracking/${e.errorId}/details`,
    project_id: project.id,
    project_name: project.name,
    project_slug: project.path,
    short_id: null,
    status: e.status,
    frequency,
  };
}

/**
 * `DetailedErrorEntity`, plus the GraphQL type's extras, release health (crash-free sessions) and
 * `frequency_30d`: events per day over the last 30 days (Sentry's `stats["30d"]`), for the detail's chart.
 */
export function detailedErrorEntity(c: Context, project: Project, e: ErrorItem, health: ReleaseHealth[], frequency: Frequency, daily: Frequency) {
  const base = errorEntity(c, project, e, frequency);
  return {
    ...base,
    external_base_url: `${baseUrl(c)}/${fullPathOf(project)}`,
    first_release_last_commit: null,
    first_release_short_version: e.firstRelease || null,
    first_release_version: e.firstRelease || null,
    last_release_last_commit: null,
    last_release_short_version: e.lastRelease || null,
    last_release_version: e.lastRelease || null,
    integrated: true,
    tags: { level: e.level || null, logger: null },
    gitlab_commit: null,
    gitlab_commit_path: null,
    gitlab_issue_path: null,
    release_health: health,
    frequency_30d: daily,
  };
}
