/**
 * Per-storage inventory: how many projects, snippets and group wikis live on each configured storage
 * and how many bytes their repositories take — the seed's "confirm that no project, snippet or group
 * remains on the source storage" as one call.
 *
 * Counts come from Queries on the storage index (gsi2 `STORAGE#<storage>#<kind>`, the same index
 * the storage moves page through), never a Scan; sizes from the primary copy of each repository on
 * disk (`repositorySize`); stray temporary folders (all replicas, `strays.ts`) apart. The index is
 * eventually consistent, like every GSI: a repository switched a moment ago may still be counted on
 * its old storage for a moment.
 */
import { instanceConfig } from "../../platform/config.js";
import { GSI2, queryAll } from "../../platform/db/table.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import { repositorySize } from "../../hosting/domain/git/index.js";
import { storageIndexPk, type ContainerKind } from "../../hosting/domain/keys.js";
import { strayTotals } from "./strays.js";

export interface KindInventory {
  count: number;
  size_bytes: number;
}

export interface StorageInventory {
  name: string;
  kind: "local" | "cluster";
  replicas: number;
  projects: KindInventory;
  snippets: KindInventory;
  group_wikis: KindInventory;
  /** Temporary folders a killed writer left (`strays.ts`): not repositories, but they take space. */
  stray_folders: KindInventory;
}

const SIZE_CONCURRENCY = 16;

/** The relative paths of every repository of a kind on a storage (keys and one attribute only). */
async function repositoriesOn(storage: string, kind: ContainerKind): Promise<string[]> {
  const items = await queryAll<{ relativePath?: string }>({ index: GSI2, pk: storageIndexPk(kind, storage), projection: ["relativePath"] });
  return items.map((item) => String(item.relativePath ?? ""));
}

async function totalSize(storage: string, paths: string[]): Promise<number> {
  const sizes = await mapConcurrently(paths, SIZE_CONCURRENCY, (path) => (path ? repositorySize(storage, path) : Promise.resolve(0)));
  return sizes.reduce((sum, size) => sum + size, 0);
}

async function kindInventory(storage: string, kind: ContainerKind): Promise<KindInventory> {
  const paths = await repositoriesOn(storage, kind);
  return { count: paths.length, size_bytes: await totalSize(storage, paths) };
}

/** Every configured storage, in configuration order. */
export async function storageInventory(): Promise<StorageInventory[]> {
  const strays = await strayTotals();
  return Promise.all(
    Object.entries(instanceConfig().storages).map(async ([name, s]) => {
      const [projects, snippets, group_wikis] = await Promise.all([kindInventory(name, "project"), kindInventory(name, "snippet"), kindInventory(name, "group")]);
      const stray_folders = strays.get(name) ?? { count: 0, size_bytes: 0 };
      return { name, kind: s.kind, replicas: s.kind === "local" ? 1 : s.replicas.length, projects, snippets, group_wikis, stray_folders };
    }),
  );
}
