/**
 * Room on a destination storage, checked before a move is scheduled (GitLab has no such guard and
 * fills disks): the bytes to move, with a margin, must fit in the free space of every replica.
 * Free space is the file system's (`statfs`), capped by the storage's `capacityBytes` when the
 * configuration sets one, less what the repositories on it already take (their recorded sizes,
 * one Query per kind of the storage index; only with a capacity set).
 */
import { statfs } from "node:fs/promises";
import { dirname } from "node:path";
import { instanceConfig } from "../../platform/config.js";
import { paramError, validationError } from "../../platform/http/errors.js";
import { GSI2, queryAll } from "../../platform/db/table.js";
import { storageIndexPk, type ContainerKind } from "../../hosting/domain/keys.js";
import { movedBytes, sizesOf, type RecordedSizes } from "../../hosting/domain/repository-size.js";

/** Room a move must leave: 10 % of what it moves (git's temporary copies, growth meanwhile). */
export const ROOM_MARGIN = 1.1;

export interface ReplicaRoom {
  path: string;
  free_bytes: number;
}

/** Bytes the repositories of a kind on a storage take, as recorded (a project with its wiki). */
export async function kindBytes(kind: ContainerKind, storage: string): Promise<{ count: number; bytes: number }> {
  const items = await queryAll<RecordedSizes & { relativePath?: string }>({ index: GSI2, pk: storageIndexPk(kind, storage), projection: ["relativePath", "repositorySize", "wikiSize"] });
  const sizes = await Promise.all(items.map((item) => sizesOf(kind, { ...item, storage })));
  return { count: items.length, bytes: sizes.reduce((sum, s) => sum + movedBytes(s), 0) };
}

/** Bytes the repositories of every kind on a storage take, as recorded. */
export async function storedBytes(storage: string): Promise<number> {
  const perKind = await Promise.all((["project", "snippet", "group"] as const).map((kind) => kindBytes(kind, storage)));
  return perKind.reduce((sum, k) => sum + k.bytes, 0);
}

/** The file system's free bytes where `path` is, or will be (a storage folder not created yet). */
async function diskFree(path: string): Promise<number> {
  for (let dir = path; ; dir = dirname(dir)) {
    const fs = await statfs(dir).catch(() => undefined);
    if (fs) return fs.bavail * fs.bsize;
    if (dirname(dir) === dir) return 0;
  }
}

/** Free bytes on each replica of a storage (one for a local storage). */
export async function freeSpace(storage: string): Promise<ReplicaRoom[]> {
  const config = instanceConfig().storages[storage];
  if (!config) return [];
  const paths = config.kind === "local" ? [config.path] : config.replicas;
  const quota = config.capacityBytes !== undefined ? config.capacityBytes - (await storedBytes(storage)) : Infinity;
  return Promise.all(
    paths.map(async (path) => {
      const onDisk = await diskFree(path);
      return { path, free_bytes: Math.max(0, Math.min(onDisk, quota)) };
    }),
  );
}

/** The shortfall when `bytes` (with the margin) do not fit on every replica of `storage`; undefined when they do. */
export async function roomShortfall(storage: string, bytes: number): Promise<{ needed: number; free: number } | undefined> {
  const needed = Math.ceil(bytes * ROOM_MARGIN);
  const free = Math.min(...(await freeSpace(storage)).map((r) => r.free_bytes));
  return needed > free ? { needed, free } : undefined;
}

export const describeShortfall = (storage: string, bytes: number, s: { needed: number; free: number }) =>
  `${storage} does not have room: the move needs ${s.needed} bytes (${bytes} and a 10% margin), ${s.free} bytes are free`;

/** Per-container POST (ActiveRecord's error shape): the container's recorded bytes must fit. */
export async function assertRoomForContainer(kind: ContainerKind, container: RecordedSizes & { storage?: string; relativePath?: string }, destination: string): Promise<void> {
  const bytes = movedBytes(await sizesOf(kind, container));
  const short = await roomShortfall(destination, bytes);
  if (short) throw validationError({ destination_storage_name: [describeShortfall(destination, bytes, short)] });
}

/** Storage-wide POST (Grape's error shape): every repository of the kind on the source must fit. */
export async function assertRoomForStorage(kind: ContainerKind, source: string, destination: string): Promise<void> {
  const { bytes } = await kindBytes(kind, source);
  const short = await roomShortfall(destination, bytes);
  if (short) throw paramError(describeShortfall(destination, bytes, short));
}
