/**
 * Reads of a repository. A read that races a storage move can find the source copy just removed
 * (the move switched the container to the destination a moment earlier); it then re-reads the
 * container's location once and retries there.
 */
import { getItem } from "../../platform/db/table.js";
import { notFound } from "../../platform/http/errors.js";
import { RepositoryNotFoundError } from "./git/index.js";
import { containerKey, type ContainerKind } from "./keys.js";
import type { RepositoryLocation } from "./write-path.js";

export async function readRepository<T>(kind: ContainerKind, id: number, first: RepositoryLocation, read: (loc: RepositoryLocation) => Promise<T>): Promise<T> {
  try {
    return await read(first);
  } catch (err) {
    if (!(err instanceof RepositoryNotFoundError)) throw err;
    const key = containerKey(kind, id);
    const fresh = await getItem<Partial<RepositoryLocation>>(key.pk, key.sk);
    if (!fresh?.storage || !fresh.relativePath || (fresh.storage === first.storage && fresh.relativePath === first.relativePath)) throw notFound("Repository");
    return read({ storage: fresh.storage, relativePath: fresh.relativePath });
  }
}
