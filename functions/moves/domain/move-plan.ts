/**
 * The plan of a storage-wide move, before scheduling it (`npm run moves -- plan`): per type, the
 * repositories and bytes on the source (recorded sizes, storage-index Queries), the free space on
 * every replica of the destination, whether it all fits with the margin the scheduling enforces
 * (`room.ts`), and how long it should take at the copy rate this instance has measured.
 */
import { movedBytes } from "../../hosting/domain/repository-size.js";
import { sizedRepositoriesOn } from "../../hosting/domain/sized-repositories.js";
import { freeSpace, ROOM_MARGIN } from "./room.js";
import { copyBytesPerSecond } from "./throughput.js";
import { movableKinds } from "./policy.js";
import type { MoveKind } from "../keys.js";

/** The repositories of a kind on a storage and the bytes they take (a project with its wiki). */
export async function kindBytes(kind: MoveKind, storage: string): Promise<{ count: number; bytes: number }> {
  const items = await sizedRepositoriesOn(kind, storage, []);
  return { count: items.length, bytes: items.reduce((sum, item) => sum + movedBytes(item.sizes), 0) };
}

export interface MovePlan {
  source_storage_name: string;
  destination_storage_name: string;
  types: Array<{ type: MoveKind; repositories: number; bytes: number }>;
  total_bytes: number;
  /** What the destination must have free on every replica: the bytes and the margin. */
  needed_bytes: number;
  /** `free_bytes` null: unknown (the folder cannot be read, so neither can its file system) and no quota. */
  destination_replicas: Array<{ replica: number; free_bytes: number | null }>;
  fits: boolean;
  /** Measured on this instance by earlier moves; null until one has copied something. */
  copy_bytes_per_second: number | null;
  estimated_seconds: number | null;
}

export async function planStorageMove(source: string, destination: string): Promise<MovePlan> {
  const kinds = movableKinds();
  const [types, replicas, rate] = await Promise.all([
    Promise.all(kinds.map(async (type) => { const { count, bytes } = await kindBytes(type, source); return { type, repositories: count, bytes }; })),
    freeSpace(destination),
    copyBytesPerSecond(),
  ]);
  const total = types.reduce((sum, t) => sum + t.bytes, 0);
  const needed = Math.ceil(total * ROOM_MARGIN);
  return {
    source_storage_name: source,
    destination_storage_name: destination,
    types,
    total_bytes: total,
    needed_bytes: needed,
    destination_replicas: replicas.map((free, i) => ({ replica: i + 1, free_bytes: Number.isFinite(free) ? free : null })),
    fits: replicas.every((free) => free >= needed),
    copy_bytes_per_second: rate === undefined ? null : Math.round(rate),
    estimated_seconds: rate === undefined ? null : Math.ceil(total / rate),
  };
}
