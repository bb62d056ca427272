/**
 * The one write path of every repository (project commits, snippet edits, wiki pages).
 *
 * A write takes an exclusive, expiring lease on the container item with a conditional update that
 * also requires the repository not to be read-only — one atomic check, no read-then-write. The
 * lease (a) serialises writers of one repository across processes and Lambdas, and (b) is what a
 * storage move waits for: after marking the repository read-only, the move waits until no unexpired
 * lease remains ("in-flight writes drained"). A crashed writer's lease simply expires.
 */
import { randomUUID } from "node:crypto";
import { getItem, isConditionFailure, updateItem } from "../../platform/db/table.js";
import { ApiError, notFound } from "../../platform/http/errors.js";
import { containerKey, type ContainerKind } from "./keys.js";

export const READ_ONLY_MESSAGE = "The repository is temporarily read-only. Please try again later.";

/**
 * 409 Conflict: the request is valid but conflicts with the repository's current state (a storage
 * move). `Retry-After` tells clients when to try again. GitLab shows the same message to pushes.
 */
export const readOnlyError = () => new ApiError(409, { message: READ_ONLY_MESSAGE }, { "Retry-After": "30" });

export interface RepositoryLocation {
  storage: string;
  relativePath: string;
}

interface ContainerRepoState extends Partial<RepositoryLocation> {
  readOnly?: boolean;
  writeLease?: { id: string; expiresAt: number };
}

const leaseMs = () => Number(process.env.FORGELINE_WRITE_LEASE_MS ?? 120_000);
const waitMs = () => Number(process.env.FORGELINE_WRITE_WAIT_MS ?? 20_000);

async function acquire(kind: ContainerKind, id: number, requireRepository: boolean): Promise<{ leaseId: string; state: ContainerRepoState }> {
  const key = containerKey(kind, id);
  const deadline = Date.now() + waitMs();
  let delay = 10;
  for (;;) {
    const leaseId = randomUUID();
    const now = Date.now();
    try {
      const state = (await updateItem({
        ...key,
        update: "SET writeLease = :lease",
        condition:
          "attribute_exists(pk) AND (attribute_not_exists(readOnly) OR readOnly = :false) AND (attribute_not_exists(writeLease) OR writeLease.expiresAt < :now)" +
          (requireRepository ? " AND attribute_exists(#storage)" : ""),
        names: requireRepository ? { "#storage": "storage" } : undefined,
        values: { ":lease": { id: leaseId, expiresAt: now + leaseMs() }, ":false": false, ":now": now },
      })) as ContainerRepoState;
      return { leaseId, state };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const current = await getItem<ContainerRepoState>(key.pk, key.sk);
      if (!current) throw notFound(kind === "project" ? "Project" : kind === "snippet" ? "Snippet" : "Group");
      if (current.readOnly) throw readOnlyError();
      if (requireRepository && !current.storage) throw notFound("Repository");
      if (Date.now() > deadline) throw new ApiError(409, { message: "Another write to this repository is still running. Please try again." }, { "Retry-After": "5" });
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 400);
    }
  }
}

async function release(kind: ContainerKind, id: number, leaseId: string): Promise<void> {
  try {
    await updateItem({ ...containerKey(kind, id), update: "REMOVE writeLease", condition: "writeLease.id = :id", values: { ":id": leaseId } });
  } catch (err) {
    // Our lease expired and someone else holds a newer one: nothing of ours to release.
    if (!isConditionFailure(err)) throw err;
  }
}

/**
 * Runs `write` while holding the repository's write lease. `write` receives where the repository is;
 * when the container has no repository yet (a group's first wiki page), `location` is undefined and
 * `write` must create it and return the new location through `onCreated`.
 */
export async function withRepositoryWrite<T>(
  kind: ContainerKind,
  id: number,
  write: (location: RepositoryLocation | undefined) => Promise<T>,
  opts: { requireRepository?: boolean } = {},
): Promise<T> {
  const { leaseId, state } = await acquire(kind, id, opts.requireRepository ?? true);
  try {
    const location = state.storage && state.relativePath ? { storage: state.storage, relativePath: state.relativePath } : undefined;
    return await write(location);
  } finally {
    await release(kind, id, leaseId);
  }
}

/** Whether a write is in flight right now (an unexpired lease) on a container item just read, as a storage move sees it. */
export function hasWriteInFlight(state: Pick<ContainerRepoState, "writeLease"> | undefined, now = Date.now()): boolean {
  return !!state?.writeLease && state.writeLease.expiresAt >= now;
}
