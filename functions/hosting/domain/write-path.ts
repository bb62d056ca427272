/**
 * The one write path of every repository (project commits, snippet edits, wiki pages, deletions).
 *
 * A write takes an exclusive, expiring lease on the container item with a conditional update that
 * also requires the repository not to be read-only — one atomic check, no read-then-write. The
 * lease (a) serialises writers of one repository across processes and Lambdas, and (b) is what a
 * storage move waits for: after marking the repository read-only, the move waits until no live
 * lease remains ("in-flight writes drained").
 *
 * A lease dies with its writer (`platform/leases.ts`):
 * - it names its holder (this runtime's incarnation, or the Lambda request) and is short
 *   (`FORGELINE_WRITE_LEASE_MS`, 15 s), renewed by a heartbeat while a long write runs, so a crashed
 *   Lambda's lease is gone within seconds;
 * - a lease taken by an earlier incarnation of the local runtime counts as released at once — for
 *   the next writer and for a move's drain;
 * - fencing: a ref moves only after the writer proved, under the ref's lock, that its lease is still
 *   its own and unexpired (`git/writer.ts`), so a writer that lost its lease cannot move a ref.
 *
 * The release records the repository's size as the write left it (`repository-size.ts`), so sizes
 * are read from the item, never walked, by the API's `statistics`, the inventory and the plans.
 */
import { getItem, isConditionFailure, updateItem } from "../../platform/db/table.js";
import { faultPoint } from "../../platform/fault-injection.js";
import { ApiError, notFound } from "../../platform/http/errors.js";
import { describeError, log } from "../../platform/log.js";
import { isLive, newLease, noLiveLease, type Lease } from "../../platform/leases.js";
import { runAsWriter } from "./git/writer.js";
import { containerKey, type ContainerKind } from "./keys.js";
import { measureSizes, type Sizes } from "./repository-size.js";

export const READ_ONLY_MESSAGE = "The repository is temporarily read-only. Please try again later.";

/**
 * 409 Conflict: the request is valid but conflicts with the repository's current state (a storage
 * move). `Retry-After` tells clients when to try again. GitLab shows the same message to pushes.
 */
export const readOnlyError = () => new ApiError(409, { message: READ_ONLY_MESSAGE }, { "Retry-After": "30" });

const busyError = () => new ApiError(409, { message: "Another write to this repository is still running. Please try again." }, { "Retry-After": "5" });
const leaseLostError = () =>
  new ApiError(409, { message: "This write lost its hold on the repository (it ran too long, or another write took over); nothing was changed. Please try again." }, { "Retry-After": "5" });

export interface RepositoryLocation {
  storage: string;
  relativePath: string;
}

/** A repository's write lease: a lease that names its holder (`platform/leases.ts`). */
export type WriteLease = Lease;

/** The container item as the lease took it: its repository's state (and its other attributes). */
export interface ContainerRepoState extends Partial<RepositoryLocation> {
  readOnly?: boolean;
  writeLease?: WriteLease;
  /** A project's wiki repository exists (beside the project's, see `project-wiki.ts`). */
  wikiRepository?: boolean;
}

const setting = (raw: string | undefined, fallback: number, min: number) => {
  const n = Number(raw);
  return raw !== undefined && raw !== "" && Number.isFinite(n) && n >= min ? n : fallback;
};
export const leaseMs = () => setting(process.env.FORGELINE_WRITE_LEASE_MS, 15_000, 1_000);
const waitMs = () => setting(process.env.FORGELINE_WRITE_WAIT_MS, 20_000, 0);

/** Whether a write is in flight right now (a live lease) on a container item just read, as a storage move sees it. */
export function hasWriteInFlight(state: { writeLease?: Pick<WriteLease, "expiresAt" | "incarnation"> } | undefined, now = Date.now()): boolean {
  return isLive(state?.writeLease, now);
}

/** A fresh lease for this process, valid for one term from `now`. */
export const newWriteLease = (now: number): WriteLease => newLease(now, leaseMs());

/**
 * The one condition under which a lease is taken: the container exists, is writable, and holds no
 * live lease (expired, or taken by an earlier incarnation of this runtime); with `requireRepository`,
 * it has a repository. Shared by `acquire` and the batched acquisition (`write-lease-batch.ts`).
 */
export function takeLeaseUpdate(lease: WriteLease, now: number, requireRepository: boolean) {
  const free = noLiveLease("writeLease", lease, now);
  return {
    update: "SET writeLease = :lease",
    condition: `attribute_exists(pk) AND (attribute_not_exists(readOnly) OR readOnly = :false) AND ${free.condition}` + (requireRepository ? " AND attribute_exists(#storage)" : ""),
    names: requireRepository ? { "#storage": "storage" } : undefined,
    values: { ":lease": lease, ":false": false, ...free.values } as Record<string, unknown>,
  };
}

async function acquire(kind: ContainerKind, id: number, requireRepository: boolean): Promise<{ lease: WriteLease; takenAt: number; state: ContainerRepoState }> {
  const key = containerKey(kind, id);
  const deadline = Date.now() + waitMs();
  let delay = 10;
  for (;;) {
    const now = Date.now();
    const lease = newWriteLease(now);
    try {
      const state = (await updateItem({ ...key, ...takeLeaseUpdate(lease, now, requireRepository) })) as ContainerRepoState;
      return { lease, takenAt: now, state };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const current = await getItem<ContainerRepoState>(key.pk, key.sk);
      if (!current) throw notFound(kind === "project" ? "Project" : kind === "snippet" ? "Snippet" : "Group");
      if (current.readOnly) throw readOnlyError();
      if (requireRepository && !current.storage) throw notFound("Repository");
      if (Date.now() >= deadline) throw busyError();
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 400);
    }
  }
}

/**
 * Extends our lease by a full term while it is still ours and unexpired. An expired lease is never
 * brought back: a move may have seen it expire and started copying.
 */
export async function renewWriteLease(kind: ContainerKind, id: number, lease: WriteLease): Promise<boolean> {
  const now = Date.now();
  try {
    await updateItem({
      ...containerKey(kind, id),
      update: "SET writeLease.expiresAt = :until",
      condition: "writeLease.id = :id AND writeLease.expiresAt >= :now",
      values: { ":until": now + leaseMs(), ":id": lease.id, ":now": now },
    });
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/**
 * Releases our lease and, given the repository's size as the write left it, records it in the same
 * update (a reader that holds a lease, such as a backup, changes nothing and records nothing).
 */
export async function releaseWriteLease(kind: ContainerKind, id: number, leaseId: string, sizes?: Sizes): Promise<void> {
  const record = sizes ? (kind === "project" ? " SET repositorySize = :rs, wikiSize = :ws" : " SET repositorySize = :rs") : "";
  const values = { ":id": leaseId, ...(sizes ? { ":rs": sizes.repositorySize, ...(kind === "project" ? { ":ws": sizes.wikiSize } : {}) } : {}) };
  try {
    await updateItem({ ...containerKey(kind, id), update: `REMOVE writeLease${record}`, condition: "writeLease.id = :id", values });
  } catch (err) {
    // Our lease expired and someone else holds a newer one (or the container is gone): nothing of ours to release.
    if (!isConditionFailure(err)) throw err;
  }
}

/**
 * Runs `write` while holding the repository's write lease. `write` receives where the repository is
 * and the container item as the lease read it; when the container has no repository yet (a group's
 * first wiki page), `location` is undefined and `write` creates it.
 */
export async function withRepositoryWrite<T>(
  kind: ContainerKind,
  id: number,
  write: (location: RepositoryLocation | undefined, container: ContainerRepoState) => Promise<T>,
  opts: { requireRepository?: boolean } = {},
): Promise<T> {
  const { lease, takenAt, state } = await acquire(kind, id, opts.requireRepository ?? true);
  let lost = false;
  const heartbeat = setInterval(() => {
    renewWriteLease(kind, id, lease).then(
      (ok) => (lost ||= !ok),
      (err: unknown) => log.warn("write lease renewal failed", { kind, id, ...describeError(err) }),
    );
  }, leaseMs() / 3);
  heartbeat.unref();
  const fence = async () => {
    await faultPoint("repositoryWrite", "fence", { kind, id });
    if (lost || !(await renewWriteLease(kind, id, lease))) {
      lost = true;
      throw leaseLostError();
    }
  };
  const location = state.storage && state.relativePath ? { storage: state.storage, relativePath: state.relativePath } : undefined;
  try {
    return await runAsWriter({ owner: `wr-${lease.id}`, fence, heldSince: takenAt }, () => write(location, state));
  } finally {
    clearInterval(heartbeat);
    // Measured whatever the write's outcome (a failed one may still have added objects); a size
    // that cannot be measured is left as it was rather than failing a write that is done.
    const sizes = await sizesAfterWrite(kind, id, location).catch((err: unknown) => void log.warn("repository size not recorded", { kind, id, ...describeError(err) }));
    await releaseWriteLease(kind, id, lease.id, sizes ?? undefined);
  }
}

/** The container's repository sizes after a write; a write that created the repository says where it is in the item. */
async function sizesAfterWrite(kind: ContainerKind, id: number, location: RepositoryLocation | undefined): Promise<Sizes | undefined> {
  const where = location ?? (await getItem<ContainerRepoState>(containerKey(kind, id).pk, containerKey(kind, id).sk));
  if (!where?.storage || !where.relativePath) return undefined;
  return measureSizes(kind, where.storage, where.relativePath);
}
