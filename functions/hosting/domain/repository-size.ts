/**
 * Repository sizes, recorded on the container item at write time (GitLab's project `statistics`):
 * the write path measures the repository it just wrote, once, while it still holds the write lease,
 * and stores the bytes with the lease's release. What reads sizes (the API's `statistics`, the
 * inventory, the rebalance plan) then reads an attribute instead of walking files. A container
 * written before sizes were recorded (or a fork not yet written) is measured when read, until its
 * next write records it.
 */
import { directorySize } from "./git/fs-util.js";
import { primaryPath } from "./git/storage.js";
import { projectWikiPath } from "./project-wiki.js";
import type { ContainerKind } from "./keys.js";

/** The attributes on a container item: bytes of its repository's primary copy (and a project's wiki). */
export interface RecordedSizes {
  repositorySize?: number;
  /** Projects only: the wiki repository beside the project's. */
  wikiSize?: number;
}

export interface Sizes {
  repositorySize: number;
  wikiSize: number;
}

/** Measures a container's repositories on disk (the primary copy; 0 for one that does not exist). */
export async function measureSizes(kind: ContainerKind, storage: string, relativePath: string): Promise<Sizes> {
  const [repositorySize, wikiSize] = await Promise.all([
    directorySize(primaryPath(storage, relativePath)),
    kind === "project" ? directorySize(primaryPath(storage, projectWikiPath(relativePath))) : Promise.resolve(0),
  ]);
  return { repositorySize, wikiSize };
}

/** The recorded sizes, or measured ones for a container that has none recorded yet. */
export async function sizesOf(kind: ContainerKind, item: RecordedSizes & { storage?: string; relativePath?: string }): Promise<Sizes> {
  if (item.repositorySize !== undefined) return { repositorySize: item.repositorySize, wikiSize: item.wikiSize ?? 0 };
  if (!item.storage || !item.relativePath) return { repositorySize: 0, wikiSize: 0 };
  return measureSizes(kind, item.storage, item.relativePath);
}

/** Everything a storage move of the container carries (a project's wiki moves with it). */
export const movedBytes = (s: Sizes) => s.repositorySize + s.wikiSize;
