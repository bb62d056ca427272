/**
 * Every repository of a kind on a storage with its sizes: one Query of the storage index (gsi2
 * `STORAGE#<storage>#<kind>`, never a Scan) reading the sizes the write path recorded
 * (`repository-size.ts`). What the inventory, the move plan and the rebalance plan all read.
 */
import { GSI2, queryAll } from "../../platform/db/table.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import { storageIndexPk, type ContainerKind } from "./keys.js";
import { sizesOf, type RecordedSizes, type Sizes } from "./repository-size.js";

/** Containers measured at once when some have no size recorded yet (written before sizes were). */
const SIZE_CONCURRENCY = 16;

/** `attributes`: what else the caller needs of each container item. */
export async function sizedRepositoriesOn<T extends object>(kind: ContainerKind, storage: string, attributes: Array<keyof T & string>): Promise<Array<T & { sizes: Sizes }>> {
  const items = await queryAll<T & RecordedSizes & { relativePath?: string }>({ index: GSI2, pk: storageIndexPk(kind, storage), projection: [...new Set(["relativePath", "repositorySize", "wikiSize", ...attributes])] });
  return mapConcurrently(items, SIZE_CONCURRENCY, async (item) => ({ ...item, sizes: await sizesOf(kind, { ...item, storage }) }));
}
