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

type ContainerItem = Partial<RepositoryLocation> & Record<string, unknown>;
const ownRepository = (item: ContainerItem): RepositoryLocation | undefined =>
  item.storage && item.relativePath ? { storage: item.storage, relativePath: item.relativePath } : undefined;

/**
 * `locate` finds the repository in a fresh read of the container item: by default the container's
 * own; a project's wiki lives beside it (`project-wiki.ts`).
 */
export async function readRepository<T>(
  kind: ContainerKind,
  id: number,
  first: RepositoryLocation,
  read: (loc: RepositoryLocation) => Promise<T>,
  locate: (item: ContainerItem) => RepositoryLocation | undefined = ownRepository,
): Promise<T> {
  try {
    return await read(first);
  } catch (err) {
    if (!(err instanceof RepositoryNotFoundError)) throw err;
    const key = containerKey(kind, id);
    const item = await getItem<ContainerItem>(key.pk, key.sk);
    const fresh = item && locate(item);
    if (!fresh || (fresh.storage === first.storage && fresh.relativePath === first.relativePath)) throw notFound("Repository");
    return read(fresh);
  }
}
