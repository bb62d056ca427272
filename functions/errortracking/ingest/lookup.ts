/**
 * The reads ingestion needs, cached in memory per function instance: project → accepting?, and
 * public key → key record. Entries live `cacheTtlMs` (≤ 5 s) and at most `cacheMaxEntries` of each
 * are kept (oldest dropped first), so a deleted or deactivated key, or tracking switched off, stops
 * ingestion on every instance within 5 s, while a burst of events costs one read per key per 5 s.
 * Misses are cached too, so a flood of unknown keys does not become a flood of reads. Concurrent
 * requests for the same entry share one read.
 *
 * The project item is read through hosting's key helpers rather than `resolveProject`, whose module
 * pulls in the Git implementation: the ingest function stays small and starts fast.
 */
import { getItem } from "../../platform/db/table.js";
import { containerKey, pathClaimKey } from "../../hosting/domain/keys.js";
import { clientKeyKey, settingKey, type ClientKeyRecord, type ErrorTrackingSetting } from "../domain/contracts.js";
import { ingestLimits } from "./limits.js";
import { Unavailable } from "./problem.js";

class TtlCache<V> {
  private entries = new Map<string, { at: number; value: Promise<V> }>();

  get(key: string, load: () => Promise<V>): Promise<V> {
    const { cacheTtlMs, cacheMaxEntries } = ingestLimits();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < cacheTtlMs) return hit.value;
    if (hit) this.entries.delete(key);
    const value = load();
    // A failed read is not remembered: the next request retries it.
    value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    this.entries.set(key, { at: now, value });
    while (this.entries.size > cacheMaxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  clear() {
    this.entries.clear();
  }
}

/** `accepting` = the project exists, its Monitor feature is on and integrated tracking is enabled. */
export interface ProjectGate {
  projectId: number;
  accepting: boolean;
  /** Why not, for the debug log only (clients get one answer for every reason). */
  off?: string;
}

export type KeyView = Pick<ClientKeyRecord, "id" | "projectId" | "active" | "secretHash">;

const projects = new TtlCache<ProjectGate | undefined>();
const keys = new TtlCache<KeyView | undefined>();

async function read<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new Unavailable(what, { cause: err });
  }
}

async function loadGate(idOrPath: string): Promise<ProjectGate | undefined> {
  let id: number | undefined;
  if (/^\d{1,15}$/.test(idOrPath)) id = Number(idOrPath);
  else if (idOrPath.length <= 512 && /^[\w.\-/]+$/.test(idOrPath)) {
    const claim = await read("DynamoDB", () => getItem<{ kind?: string; ownerId?: number }>(pathClaimKey(idOrPath).pk, "NAMESPACE", false));
    if (claim?.kind === "project" && typeof claim.ownerId === "number") id = claim.ownerId;
  }
  if (id === undefined || id <= 0) return undefined;
  const projectKey = containerKey("project", id);
  const setting = settingKey(id);
  const [project, tracking] = await read("DynamoDB", () =>
    Promise.all([
      getItem<{ features?: Record<string, string> }>(projectKey.pk, projectKey.sk),
      getItem<ErrorTrackingSetting>(setting.pk, setting.sk),
    ]),
  );
  if (!project) return undefined;
  const off =
    project.features?.monitor_access_level === "disabled" ? "Monitor feature disabled" : tracking?.enabled !== true ? "error tracking disabled" : tracking.integrated !== true ? "third-party error tracking" : undefined;
  return { projectId: id, accepting: off === undefined, off };
}

export function projectGate(idOrPath: string): Promise<ProjectGate | undefined> {
  return projects.get(idOrPath, () => loadGate(idOrPath));
}

export function clientKey(publicKey: string): Promise<KeyView | undefined> {
  return keys.get(publicKey, async () => {
    const k = clientKeyKey(publicKey);
    const record = await read("DynamoDB", () => getItem<ClientKeyRecord>(k.pk, k.sk));
    return record ? { id: record.id, projectId: record.projectId, active: record.active, secretHash: record.secretHash } : undefined;
  });
}

/** For tests: forget every cached lookup. */
export function clearLookupCache(): void {
  projects.clear();
  keys.clear();
}
