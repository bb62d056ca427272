/**
 * Expiring leases that name their holder: a repository's write lease (`hosting/domain/write-path.ts`)
 * and a hook delivery's lock (`errortracking/hooks/delivery.ts`). A lease dies with its holder:
 * - it is short and expires after its term, so a crashed Lambda's lease is gone once the term is over;
 * - the local runtime numbers its incarnations of a data folder (`local/recovery.ts`): a lease taken
 *   by an earlier incarnation belongs to a process that no longer exists, and counts as released at
 *   once, however long its term still runs.
 */
import { randomUUID } from "node:crypto";
import { currentRequestId } from "./log.js";

export interface Lease {
  /** This lease's token: only its holder may renew, fence with or release it. */
  id: string;
  /** Who holds it: `runtime-<incarnation>-<pid>` locally, `lambda-<function>-<request id>` on AWS. */
  holder: string;
  expiresAt: number;
  /** The local runtime incarnation that took it; absent on AWS. */
  incarnation?: number;
}

/**
 * The item that numbers the local runtime's incarnations of a data folder (`local/recovery.ts`).
 * State of this installation, not of the instance: backup leaves it out and restore keeps it.
 */
export const INCARNATION_KEY = { pk: "RUNTIME", sk: "INCARNATION" } as const;

/** This process's runtime incarnation on the local runtime (see `local/recovery.ts`); undefined on AWS. */
export function runtimeIncarnation(): number | undefined {
  const n = Number(process.env.FORGELINE_RUNTIME_INCARNATION);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

function holderName(): string {
  const incarnation = runtimeIncarnation();
  if (incarnation !== undefined) return `runtime-${incarnation}-${process.pid}`;
  const fn = process.env.AWS_LAMBDA_FUNCTION_NAME;
  return `${fn ? `lambda-${fn}` : `process-${process.pid}`}-${currentRequestId() ?? "none"}`;
}

/** A fresh lease for this process, valid for `termMs` from `now`. */
export function newLease(now: number, termMs: number): Lease {
  const incarnation = runtimeIncarnation();
  return { id: randomUUID(), holder: holderName(), expiresAt: now + termMs, ...(incarnation !== undefined ? { incarnation } : {}) };
}

/** Whether the lease was taken by an earlier incarnation of this local runtime: its holder is gone. */
const heldByPredecessor = (lease: Pick<Lease, "incarnation">, incarnation = runtimeIncarnation()) =>
  incarnation !== undefined && lease.incarnation !== undefined && lease.incarnation < incarnation;

/** Whether a lease just read still has a live holder: unexpired, and not an earlier incarnation's. */
export function isLive(lease: Pick<Lease, "expiresAt" | "incarnation"> | undefined, now = Date.now()): boolean {
  return !!lease && lease.expiresAt >= now && !heldByPredecessor(lease);
}

/**
 * The condition, for a conditional update about to store `lease` in `attribute`, that the attribute
 * holds no live lease: none, an expired one, or one an earlier incarnation of this runtime took. The
 * same test as `isLive`, done by DynamoDB in the write itself.
 */
export function noLiveLease(attribute: string, lease: Pick<Lease, "incarnation">, now: number): { condition: string; values: Record<string, unknown> } {
  const incarnation = lease.incarnation;
  const predecessor = incarnation !== undefined ? ` OR ${attribute}.incarnation < :leaseIncarnation` : "";
  return {
    condition: `(attribute_not_exists(${attribute}) OR ${attribute}.expiresAt < :leaseNow${predecessor})`,
    values: { ":leaseNow": now, ...(incarnation !== undefined ? { ":leaseIncarnation": incarnation } : {}) },
  };
}
