/**
 * Write leases on several containers at once, for a reader that visits many small repositories in
 * a row (the backup): one transaction takes the leases of a whole batch and one gives them back,
 * instead of two round trips per repository.
 *
 * Each lease is exactly the one `withRepositoryWrite` takes — same attribute, same condition
 * (`takeLeaseUpdate`), same holder and term — so writers and storage moves wait for it alike. Only
 * readers use this: they never move a ref, so they need no fencing. A container whose lease cannot
 * be taken right now (held, read-only, deleted) is reported back, not waited for: the caller takes
 * it on its own through `withRepositoryWrite`, which waits and tells the reasons apart.
 */
import { isConditionFailure, transact, type TransactItem } from "../../platform/db/table.js";
import { describeError, log } from "../../platform/log.js";
import { containerKey, type ContainerKind } from "./keys.js";
import { leaseMs, newWriteLease, releaseWriteLease, renewWriteLease, takeLeaseUpdate, type WriteLease } from "./write-path.js";

export interface LeaseTarget {
  kind: ContainerKind;
  id: number;
}

export interface HeldLease<T extends LeaseTarget> {
  target: T;
  lease: WriteLease;
}

/** DynamoDB takes at most 100 items per transaction. */
export const MAX_BATCH = 100;

function cancellationCodes(err: unknown): string[] | undefined {
  const e = err as { name?: string; CancellationReasons?: Array<{ Code?: string }> };
  return e?.name === "TransactionCanceledException" ? (e.CancellationReasons ?? []).map((r) => r.Code ?? "None") : undefined;
}

async function tryTake<T extends LeaseTarget>(targets: T[]): Promise<{ held: Array<HeldLease<T>> } | { refused: boolean[] }> {
  const now = Date.now();
  const held = targets.map((target) => ({ target, lease: newWriteLease(now) }));
  const items: TransactItem[] = held.map(({ target, lease }) => {
    const u = takeLeaseUpdate(lease, now, true);
    return {
      Update: {
        Key: containerKey(target.kind, target.id),
        UpdateExpression: u.update,
        ConditionExpression: u.condition,
        ExpressionAttributeNames: u.names,
        ExpressionAttributeValues: u.values,
      },
    };
  });
  try {
    await transact(items);
    return { held };
  } catch (err) {
    const codes = cancellationCodes(err);
    if (!codes) throw err;
    // Without reasons (some emulators), every item counts as refused: the caller takes each alone.
    return { refused: targets.map((_, i) => codes.length !== targets.length || codes[i] !== "None") };
  }
}

/**
 * Takes the leases of `targets` (at most MAX_BATCH, all distinct). A transaction is all or nothing:
 * when it is refused, the containers whose condition failed are set aside and the rest is tried
 * once more; anything still not taken is returned in `refused`.
 */
export async function takeWriteLeases<T extends LeaseTarget>(targets: T[]): Promise<{ held: Array<HeldLease<T>>; refused: T[] }> {
  if (targets.length > MAX_BATCH) throw new Error(`at most ${MAX_BATCH} leases per batch`);
  if (targets.length === 0) return { held: [], refused: [] };
  const first = await tryTake(targets);
  if ("held" in first) return { held: first.held, refused: [] };
  const refused = targets.filter((_, i) => first.refused[i]);
  const rest = targets.filter((_, i) => !first.refused[i]);
  if (rest.length === 0) return { held: [], refused };
  const second = await tryTake(rest);
  return "held" in second ? { held: second.held, refused } : { held: [], refused: targets };
}

/**
 * Gives the leases back in one transaction, each only if it is still ours; when one is not (it
 * expired and another writer took the container), each is released on its own, which leaves a
 * lease that is not ours alone.
 */
export async function releaseWriteLeases(held: Array<HeldLease<LeaseTarget>>): Promise<void> {
  for (let i = 0; i < held.length; i += MAX_BATCH) {
    const part = held.slice(i, i + MAX_BATCH);
    try {
      await transact(
        part.map(({ target, lease }) => ({
          Update: { Key: containerKey(target.kind, target.id), UpdateExpression: "REMOVE writeLease", ConditionExpression: "writeLease.id = :id", ExpressionAttributeValues: { ":id": lease.id } },
        })),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      for (const { target, lease } of part) await releaseWriteLease(target.kind, target.id, lease.id);
    }
  }
}

/** Renews every lease of `held` each third of a term until the returned function is called. */
export function renewWhileHeld(held: Array<HeldLease<LeaseTarget>>): () => void {
  const heartbeat = setInterval(() => {
    for (const { target, lease } of held) {
      renewWriteLease(target.kind, target.id, lease).catch((err: unknown) => log.warn("write lease renewal failed", { kind: target.kind, id: target.id, ...describeError(err) }));
    }
  }, leaseMs() / 3);
  heartbeat.unref();
  return () => clearInterval(heartbeat);
}
