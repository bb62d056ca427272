/**
 * Rebalancing by `repository_storages_weighted`: which repositories to move where so that each
 * storage's share of the bytes comes within `tolerance` percentage points of its share of the
 * weights. Only the plan lives here (pure, `planRebalance`) and the reads it needs (`rebalanceInput`,
 * Queries on the storage index, never a Scan); the moves themselves are ordinary per-container moves
 * (`POST /<plural>/:id/repository_storage_moves` with `destination_storage_name`) that the operator
 * CLI schedules and watches, so they run through the same state machine and the same guards, and
 * this module carries neither the Step Functions client nor Git.
 */
import { storageNames } from "../../platform/config.js";
import { storageWeights, type Weights } from "../../identity/domain/settings.js";
import { movedBytes } from "../../hosting/domain/repository-size.js";
import { sizedRepositoriesOn } from "../../hosting/domain/sized-repositories.js";
import type { MoveKind } from "../keys.js";

export interface Placed {
  kind: MoveKind;
  id: number;
  storage: string;
  bytes: number;
  /** Read-only or held by a move: counted where it is, never picked. */
  movable: boolean;
}

export interface PlannedMove {
  kind: MoveKind;
  id: number;
  from: string;
  to: string;
  bytes: number;
}

export interface StorageShare {
  name: string;
  weight: number;
  target_share: number;
  bytes_before: number;
  share_before: number;
  bytes_after: number;
  share_after: number;
}

export interface RebalancePlan {
  tolerance: number;
  total_bytes: number;
  /** Every storage within tolerance once the planned moves are done. */
  balanced: boolean;
  storages: StorageShare[];
  /** In the order to run them: smallest repositories first. */
  moves: PlannedMove[];
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/**
 * Greedy and smallest first: while some storage is out of tolerance, the smallest movable repository
 * of the storage furthest above its target goes to the storage furthest below its own, as long as
 * that brings the two closer to their targets (a storage with nothing that helps gives way to the
 * next one above its target). Stops when balanced, or when no such move is left
 * (repositories too large for the tolerance): `balanced` says which.
 */
export function planRebalance(weights: Weights, placed: Placed[], tolerance: number): RebalancePlan {
  const names = Object.keys(weights);
  const weightSum = names.reduce((sum, n) => sum + Math.max(0, weights[n]!), 0);
  const total = placed.reduce((sum, p) => sum + p.bytes, 0);
  const target = new Map(names.map((n) => [n, weightSum === 0 ? 0 : (Math.max(0, weights[n]!) / weightSum) * total]));
  const bytes = new Map(names.map((n) => [n, 0]));
  for (const p of placed) bytes.set(p.storage, (bytes.get(p.storage) ?? 0) + p.bytes);
  const before = new Map(bytes);
  const excess = (n: string) => (bytes.get(n) ?? 0) - (target.get(n) ?? 0);
  const outOfTolerance = () => names.some((n) => Math.abs(excess(n)) > (tolerance / 100) * total);
  // Smallest first on every storage (ties by id, so a plan is reproducible).
  const candidates = new Map(names.map((n) => [n, placed.filter((p) => p.storage === n && p.movable).sort((a, b) => a.bytes - b.bytes || a.id - b.id)]));
  const moves: PlannedMove[] = [];
  const improves = (from: string, to: string, size: number) =>
    Math.abs(excess(from) - size) + Math.abs(excess(to) + size) < Math.abs(excess(from)) + Math.abs(excess(to));
  while (weightSum > 0 && outOfTolerance()) {
    const under = names.filter((n) => (weights[n] ?? 0) > 0).sort((a, b) => excess(a) - excess(b))[0]!;
    // The storage furthest above its target whose smallest movable repository still helps.
    const over = names
      .filter((n) => n !== under && excess(n) > 0)
      .sort((a, b) => excess(b) - excess(a))
      .find((n) => candidates.get(n)!.length > 0 && improves(n, under, candidates.get(n)![0]!.bytes));
    if (!over) break;
    const next = candidates.get(over)!.shift()!;
    bytes.set(over, bytes.get(over)! - next.bytes);
    bytes.set(under, bytes.get(under)! + next.bytes);
    moves.push({ kind: next.kind, id: next.id, from: over, to: under, bytes: next.bytes });
  }
  const storages = names.map((name) => ({
    name,
    weight: weights[name] ?? 0,
    target_share: percent(target.get(name)!, total),
    bytes_before: before.get(name)!,
    share_before: percent(before.get(name)!, total),
    bytes_after: bytes.get(name)!,
    share_after: percent(bytes.get(name)!, total),
  }));
  return { tolerance, total_bytes: total, balanced: !outOfTolerance(), storages, moves };
}

interface IndexedContainer {
  id: number;
  relativePath?: string;
  readOnly?: boolean;
  storageMoveId?: number;
}

/** The weights, and every repository of `kinds` with its storage and size (one Query per storage and kind). */
export async function rebalanceInput(kinds: MoveKind[]): Promise<{ weights: Weights; placed: Placed[] }> {
  const weights = await storageWeights();
  const perStorage = await Promise.all(
    storageNames().flatMap((storage) =>
      kinds.map(async (kind) =>
        (await sizedRepositoriesOn<IndexedContainer>(kind, storage, ["id", "relativePath", "readOnly", "storageMoveId"])).map((c) => ({
          kind,
          id: c.id,
          storage,
          bytes: movedBytes(c.sizes),
          movable: !!c.relativePath && !c.readOnly && c.storageMoveId === undefined,
        })),
      ),
    ),
  );
  return { weights, placed: perStorage.flat() };
}
