/**
 * Project webhooks (GitLab's `ProjectHook`), of which this service fires one kind: error tracking
 * alerts (`error_tracking_events`). GitLab's other event flags are stored and returned as given, so
 * clients that manage hooks keep working; nothing here pushes, tags or merges.
 *
 * | item            | pk                 | sk                  |
 * |-----------------|--------------------|---------------------|
 * | hook            | ETHOOKS#<pid>      | HOOK#<padded id>    |
 *
 * All hooks of a project share one partition: listing them, and the consumer's per-project read, is
 * one Query. The secret `token` is sent back to the receiver (`X-Gitlab-Token`), so it is encrypted
 * (AES-256-GCM, the third-party tracker token's scheme), never hashed, and never returned; so are the
 * values of custom headers and URL variables (`hook-extras.ts`), of which only the names are shown.
 */
import { deleteItem, getItem, nextId, pad, putItem, queryAll, updateItem } from "../../platform/db/table.js";
import { decryptSecret, encryptSecret } from "../thirdparty/secret.js";

/** GitLab's event flags of a project hook, with their defaults (`push_events` is on by default). */
export const GITLAB_EVENT_FLAGS = {
  push_events: true,
  tag_push_events: false,
  issues_events: false,
  confidential_issues_events: false,
  merge_requests_events: false,
  note_events: false,
  confidential_note_events: false,
  job_events: false,
  pipeline_events: false,
  wiki_page_events: false,
  deployment_events: false,
  releases_events: false,
  milestone_events: false,
  feature_flag_events: false,
  repository_update_events: false,
  resource_access_token_events: false,
  /** The one flag this service acts on: error tracking alerts. Off by default, like every new kind. */
  error_tracking_events: false,
} as const;
export type EventFlag = keyof typeof GITLAB_EVENT_FLAGS;
export const EVENT_FLAGS = Object.keys(GITLAB_EVENT_FLAGS) as EventFlag[];

export interface HookRecord {
  id: number;
  projectId: number;
  url: string;
  name: string;
  description: string;
  tokenCiphertext: string | null;
  enableSslVerification: boolean;
  pushEventsBranchFilter: string;
  flags: Record<EventFlag, boolean>;
  /** Alert when an error gets more than this many events within `thresholdWindowSeconds` (null: off). */
  thresholdEvents: number | null;
  thresholdWindowSeconds: number;
  /** The instance origin the hook was saved through, for links in payloads (config `externalUrl` wins). */
  origin: string;
  createdAt: string;
  /** GitLab's custom headers and URL variables: name → encrypted value (secrets, never returned). */
  customHeaders?: Record<string, string>;
  urlVariables?: Record<string, string>;
}

export const hooksPk = (projectId: number) => `ETHOOKS#${projectId}`;
export const hookKey = (projectId: number, hookId: number) => ({ pk: hooksPk(projectId), sk: `HOOK#${pad(hookId)}` });

/** The windows a threshold may use: Sentry's alert intervals, from one minute to a day. */
export const THRESHOLD_WINDOWS = [60, 300, 900, 3600, 86400] as const;
export const DEFAULT_THRESHOLD_WINDOW = 3600;

export type HookChange = Partial<Omit<HookRecord, "id" | "projectId" | "createdAt" | "tokenCiphertext" | "flags">> & {
  flags?: Partial<Record<EventFlag, boolean>>;
  /** Plain token; "" removes it. */
  token?: string;
};

function applyChange(base: HookRecord, change: HookChange): HookRecord {
  const { token, flags, ...rest } = change;
  const next: HookRecord = { ...base, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)), flags: { ...base.flags, ...flags } };
  if (token !== undefined) next.tokenCiphertext = token ? encryptSecret(token) : null;
  return next;
}

export async function createHook(projectId: number, change: HookChange & { url: string; origin: string }): Promise<HookRecord> {
  const id = await nextId("project_hooks");
  const record = applyChange(
    {
      id,
      projectId,
      url: change.url,
      name: "",
      description: "",
      tokenCiphertext: null,
      enableSslVerification: true,
      pushEventsBranchFilter: "",
      flags: { ...GITLAB_EVENT_FLAGS },
      thresholdEvents: null,
      thresholdWindowSeconds: DEFAULT_THRESHOLD_WINDOW,
      origin: change.origin,
      createdAt: new Date().toISOString(),
    },
    change,
  );
  await putItem({ ...hookKey(projectId, id), type: "ethook", ...record }, { expression: "attribute_not_exists(pk)" });
  forgetProjectHooks(projectId);
  return record;
}

export async function findHook(projectId: number, hookId: number): Promise<HookRecord | undefined> {
  const key = hookKey(projectId, hookId);
  return getItem<HookRecord>(key.pk, key.sk);
}

/**
 * Writes the hook's own attributes as `change` leaves them. Custom headers and URL variables are
 * not among them: they have their own conditional writes (`hook-extras.ts`), so one removed while
 * this edit was under way stays removed.
 */
export async function updateHook(existing: HookRecord, change: HookChange): Promise<HookRecord> {
  const { customHeaders, urlVariables, ...fields } = applyChange(existing, change);
  // A hook read back from the table carries its key, which an update cannot set.
  const entries = Object.entries(fields).filter(([name, value]) => value !== undefined && name !== "pk" && name !== "sk");
  const key = hookKey(existing.projectId, existing.id);
  const saved = await updateItem({
    ...key,
    update: `SET ${entries.map((_, i) => `#a${i} = :a${i}`).join(", ")}`,
    condition: "attribute_exists(pk)",
    names: Object.fromEntries(entries.map(([name], i) => [`#a${i}`, name])),
    values: Object.fromEntries(entries.map(([, value], i) => [`:a${i}`, value])),
  });
  forgetProjectHooks(existing.projectId);
  return { ...fields, customHeaders: saved?.customHeaders as HookRecord["customHeaders"], urlVariables: saved?.urlVariables as HookRecord["urlVariables"] };
}

export async function deleteHook(hook: HookRecord): Promise<void> {
  const key = hookKey(hook.projectId, hook.id);
  await deleteItem(key.pk, key.sk);
  forgetProjectHooks(hook.projectId);
}

/** Oldest first (by id), as GitLab lists them. GitLab allows 100 hooks per project, so one Query. */
export async function listHooks(projectId: number, consistent = true): Promise<HookRecord[]> {
  return queryAll<HookRecord>({ pk: hooksPk(projectId), skPrefix: "HOOK#", ascending: true, consistent });
}

export const hookToken = (hook: HookRecord) => (hook.tokenCiphertext ? decryptSecret(hook.tokenCiphertext) : undefined);

// ── The consumer's read: a project's alerting hooks, cached per instance ────────────────────────────
/**
 * The consumer reads a project's hooks for every event it records, so the answer is kept per
 * instance for a few seconds: a changed or new hook takes effect within that time.
 */
const cacheTtlMs = () => Number(process.env.FORGELINE_HOOK_CACHE_TTL_MS ?? 5000);
const cache = new Map<number, { until: number; hooks: Promise<HookRecord[]> }>();

export function alertingHooks(projectId: number, now = Date.now()): Promise<HookRecord[]> {
  const hit = cache.get(projectId);
  if (hit && hit.until > now) return hit.hooks;
  const hooks = listHooks(projectId, false).then((all) => all.filter((h) => h.flags.error_tracking_events));
  // A failed read is not kept: the next event asks again.
  hooks.catch(() => cache.delete(projectId));
  if (cache.size > 10_000) cache.clear();
  cache.set(projectId, { until: now + cacheTtlMs(), hooks });
  return hooks;
}

/** Drops this instance's cached answer (other instances see the change within `FORGELINE_HOOK_CACHE_TTL_MS`, 5 s by default). */
export function forgetProjectHooks(projectId: number): void {
  cache.delete(projectId);
}
