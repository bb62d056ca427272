/**
 * The console's storages view: each configured storage with its kind and replicas, the repositories
 * and bytes on it (the sizes recorded at write time), free space and quota on every replica, its
 * weight, and the moves in flight into and out of it with their bytes.
 *
 * One Query of the storage index per storage and kind (never a Scan), as the inventory and the plans
 * read it. The moves in flight come out of the same Queries: a container keeps `storageMoveId` from
 * its move's scheduling until the move ends, so the containers that carry one are exactly those
 * under a move, whichever storage they are on now; their records are then read in one batch.
 */
import { instanceConfig, storageNames } from "../../platform/config.js";
import { storageWeights } from "../../identity/domain/settings.js";
import { movedBytes } from "../../hosting/domain/repository-size.js";
import { sizedRepositoriesOn } from "../../hosting/domain/sized-repositories.js";
import type { MoveKind } from "../keys.js";
import { CONTAINER_KINDS } from "../../hosting/domain/keys.js";
import { findMoves, isTerminal, type MoveRecord } from "./records.js";
import { freeSpace } from "./room.js";

export interface MoveInFlight {
  type: MoveKind;
  id: number;
  container_id: number;
  state: string;
  source_storage_name: string;
  destination_storage_name: string;
  bytes: number;
  created_at: string;
}

export interface StorageView {
  name: string;
  kind: "local" | "cluster";
  weight: number;
  /** The most it may hold (`capacityBytes`), or null without a quota. */
  quota_bytes: number | null;
  /** Repositories on it and their bytes, per type (a project with its wiki). */
  repositories: Record<"projects" | "snippets" | "group_wikis", { count: number; bytes: number }>;
  used_bytes: number;
  /** Per replica (one for a local storage): free bytes, the quota applied; null when unknown. */
  replicas: Array<{ replica: number; free_bytes: number | null }>;
  /** The least free space of its replicas: what a move onto it may take. */
  free_bytes: number | null;
  moving_out_bytes: number;
  moving_in_bytes: number;
  moves_out: MoveInFlight[];
  moves_in: MoveInFlight[];
}

const finite = (n: number) => (Number.isFinite(n) ? n : null);
const TYPE_OF: Record<MoveKind, keyof StorageView["repositories"]> = { project: "projects", snippet: "snippets", group: "group_wikis" };

export async function storagesOverview(): Promise<{ storages: StorageView[]; moves_in_flight: number }> {
  const config = instanceConfig().storages;
  const names = storageNames();
  const [weights, perStorage] = await Promise.all([
    storageWeights(),
    Promise.all(
      names.map(async (storage) =>
        Promise.all(
          CONTAINER_KINDS.map(async (kind) => ({
            kind,
            items: await sizedRepositoriesOn<{ id: number; storageMoveId?: number }>(kind, storage, ["id", "storageMoveId"]),
          })),
        ),
      ),
    ),
  ]);
  // The containers under a move, wherever they are now, with their bytes.
  const held = perStorage.flatMap((kinds) => kinds.flatMap(({ kind, items }) => items.filter((c) => c.storageMoveId !== undefined).map((c) => ({ kind, moveId: c.storageMoveId!, bytes: movedBytes(c.sizes) }))));
  const records = await findMoves(held);
  const inFlight: MoveInFlight[] = held.flatMap((h, i) => {
    const m = records[i];
    return m && !isTerminal(m.state) ? [view(m, h.bytes)] : [];
  });
  const storages = await Promise.all(
    names.map(async (name, s) => {
      const c = config[name]!;
      const repositories = { projects: { count: 0, bytes: 0 }, snippets: { count: 0, bytes: 0 }, group_wikis: { count: 0, bytes: 0 } };
      for (const { kind, items } of perStorage[s]!) {
        const slot = repositories[TYPE_OF[kind]];
        slot.count += items.length;
        slot.bytes += items.reduce((sum, item) => sum + movedBytes(item.sizes), 0);
      }
      const used = Object.values(repositories).reduce((sum, r) => sum + r.bytes, 0);
      const free = await freeSpace(name, used);
      const out = inFlight.filter((m) => m.source_storage_name === name);
      const into = inFlight.filter((m) => m.destination_storage_name === name);
      return {
        name,
        kind: c.kind,
        weight: weights[name] ?? 0,
        quota_bytes: c.capacityBytes ?? null,
        repositories,
        used_bytes: used,
        replicas: free.map((f, i) => ({ replica: i + 1, free_bytes: finite(f) })),
        free_bytes: finite(Math.min(...free)),
        moving_out_bytes: out.reduce((sum, m) => sum + m.bytes, 0),
        moving_in_bytes: into.reduce((sum, m) => sum + m.bytes, 0),
        moves_out: out,
        moves_in: into,
      };
    }),
  );
  return { storages, moves_in_flight: inFlight.length };
}

const view = (m: MoveRecord, bytes: number): MoveInFlight => ({
  type: m.kind,
  id: m.id,
  container_id: m.containerId,
  state: m.state,
  source_storage_name: m.sourceStorage,
  destination_storage_name: m.destinationStorage,
  bytes,
  created_at: m.createdAt,
});
