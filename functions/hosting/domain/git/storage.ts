/**
 * Where a repository lives on disk. A storage is either one directory (`local`) or several replica
 * directories that must always hold identical copies (`cluster`); the first replica is the primary
 * that writes go to before they are mirrored (see `replica-sync.ts`).
 */
import { createHash } from "node:crypto";
import { isAbsolute, join } from "node:path";
import { instanceConfig } from "../../../platform/config.js";
import { UnknownStorageError } from "./errors.js";

export type RepositoryKind = "project" | "snippet" | "group-wiki";

/** Every directory holding `relativePath` on `storageName`: one for local, one per replica for cluster. */
export function replicaPaths(storageName: string, relativePath: string): string[] {
  const roots = storageRoots(storageName);
  assertSafeRelativePath(relativePath);
  return roots.map((root) => join(root, relativePath));
}

/** The directory of a local storage, or each replica's directory of a cluster storage. */
export function storageRoots(storageName: string): string[] {
  const storages = instanceConfig().storages;
  const storage = Object.hasOwn(storages, storageName) ? storages[storageName] : undefined;
  if (!storage) throw new UnknownStorageError(storageName);
  return storage.kind === "local" ? [storage.path] : storage.replicas;
}

/** The replica that receives writes first and serves reads. */
export function primaryPath(storageName: string, relativePath: string): string {
  return replicaPaths(storageName, relativePath)[0]!;
}

/**
 * GitLab's hashed storage layout: `@hashed/ab/cd/<sha256(id)>.git` for projects,
 * `<same>.wiki.git` for group wikis and `@snippets/<id>.git` for snippets.
 */
export function hashedRelativePath(kind: RepositoryKind, id: number): string {
  if (!Number.isSafeInteger(id) || id < 0) throw new Error(`Invalid repository owner id: ${id}`);
  // GitLab's hashed layout: separate roots per container type, so ids of different types never collide.
  const hash = createHash("sha256").update(String(id)).digest("hex");
  const shard = `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
  if (kind === "snippet") return `@snippets/${shard}.git`;
  if (kind === "group-wiki") return `@groups/${shard}.wiki.git`;
  return `@hashed/${shard}.git`;
}

/** A relative path comes from our own database, but a bad one must never escape the storage root. */
function assertSafeRelativePath(relativePath: string): void {
  const parts = relativePath.split(/[\\/]/);
  if (
    relativePath === "" ||
    isAbsolute(relativePath) ||
    relativePath.includes("\0") ||
    parts.some((p) => p === "" || p === "." || p === "..")
  ) {
    throw new Error(`Invalid repository path: ${JSON.stringify(relativePath)}`);
  }
}
