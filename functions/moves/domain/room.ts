/**
 * Room on a destination storage, checked before a move is scheduled (GitLab has no such guard and
 * fills disks): the bytes to move, with a margin, must fit in the free space of every replica.
 * Free space is the file system's (`statfs`), capped by the storage's `capacityBytes` quota, less
 * what its repositories already take, when the configuration sets one. Sizes are those recorded at
 * write time; this module reads no file and stays small, since the per-container POST bundles it.
 */
import { statfs } from "node:fs/promises";
import { instanceConfig } from "../../platform/config.js";
import { paramError, validationError } from "../../platform/http/errors.js";
import { GSI2 } from "../../platform/db/table.js";
import { docQuery, type Doc } from "../../platform/db/document.js";
import { resources } from "../../platform/resources.js";
import { storageIndexPk } from "../../hosting/domain/keys.js";
import type { RecordedSizes } from "../../hosting/domain/repository-size.js";

/** Room a move must leave: 10 % of what it moves (git's temporary copies, growth meanwhile). */
export const ROOM_MARGIN = 1.1;

/** Bytes recorded for a container (a project with its wiki). */
export const recordedBytes = (c: RecordedSizes) => (c.repositorySize ?? 0) + (c.wikiSize ?? 0);

/**
 * What a storage under a quota already holds: its repositories' recorded sizes, read page by page
 * from the storage index (one plain Query loop: the generic range reader would not fit the budget
 * of the per-container POST, which bundles this).
 */
async function storedBytes(storage: string): Promise<number> {
  let total = 0;
  for (const kind of ["project", "snippet", "group"] as const) {
    let start: Doc | undefined;
    do {
      const page = await docQuery({
        TableName: resources.mainTable(),
        IndexName: GSI2,
        KeyConditionExpression: "gsi2pk = :pk",
        ExpressionAttributeValues: { ":pk": storageIndexPk(kind, storage) },
        ProjectionExpression: "repositorySize, wikiSize",
        ExclusiveStartKey: start,
      });
      for (const item of page.Items ?? []) total += recordedBytes(item);
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return total;
}

/**
 * Free bytes on each replica of a storage (one for a local storage): the file system's free bytes at
 * its folder (no limit when it cannot be read), capped by what its quota leaves. `used`: the bytes its
 * repositories take, when the caller has already read them (else they are read here, under a quota).
 */
export async function freeSpace(storage: string, used?: number): Promise<number[]> {
  const config = instanceConfig().storages[storage];
  if (!config) return [];
  const quota = config.capacityBytes !== undefined ? config.capacityBytes - (used ?? (await storedBytes(storage))) : Infinity;
  return Promise.all((config.kind === "local" ? [config.path] : config.replicas).map(async (path) => Math.max(0, Math.min(await statfs(path).then((fs) => fs.bavail * fs.bsize, () => quota), quota))));
}

/** Why `bytes` do not fit on `storage`, or undefined when they fit on every replica with the margin. */
export async function noRoom(storage: string, bytes: number): Promise<string | undefined> {
  const needed = Math.ceil(bytes * ROOM_MARGIN);
  const free = Math.min(...(await freeSpace(storage)));
  return needed > free ? `${storage} does not have room: ${needed} bytes needed (with a 10% margin), ${free} free` : undefined;
}

/** Per-container POST (ActiveRecord's error shape). */
export async function assertRoomForContainer(container: RecordedSizes, destination: string): Promise<void> {
  const reason = await noRoom(destination, recordedBytes(container));
  if (reason) throw validationError({ destination_storage_name: [reason] });
}

/** Storage-wide POST (Grape's error shape): `bytes` is everything of the kind on the source. */
export async function assertRoomForStorage(bytes: number, destination: string): Promise<void> {
  const reason = await noRoom(destination, bytes);
  if (reason) throw paramError(reason);
}
