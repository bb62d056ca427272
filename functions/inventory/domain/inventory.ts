/**
 * Per-storage inventory: how many projects (and their wikis), snippets and group wikis live on each configured storage
 * and how many bytes their repositories take — the seed's "confirm that no project, snippet or group
 * remains on the source storage" as one call.
 *
 * Counts come from Queries on the storage index (gsi2 `STORAGE#<storage>#<kind>`, the same index
 * the storage moves page through), never a Scan; sizes from the primary copy of each repository on
 * disk (`repositorySize`); stray temporary folders (all replicas, `strays.ts`) apart. The index is
 * eventually consistent, like every GSI: a repository switched a moment ago may still be counted on
 * its old storage for a moment. A project's wiki lives beside the project on its storage; the same
 * Query of the project index tells which projects have one (`wikiRepository`).
 */
import { instanceConfig } from "../../platform/config.js";
import { GSI2, queryAll } from "../../platform/db/table.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import { repositorySize } from "../../hosting/domain/git/index.js";
import { storageIndexPk, type ContainerKind } from "../../hosting/domain/keys.js";
import { projectWikiPath } from "../../hosting/domain/project-wiki.js";
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
  /** Wiki repositories of the projects on this storage (they move with their project). */
  project_wikis: KindInventory;
  snippets: KindInventory;
  group_wikis: KindInventory;
  /** Temporary folders a killed writer left (`strays.ts`): not repositories, but they take space. */
  stray_folders: KindInventory;
}

const SIZE_CONCURRENCY = 16;

/** The relative paths of every repository of a kind on a storage, and of the project wikis among them. */
async function repositoriesOn(storage: string, kind: ContainerKind): Promise<{ paths: string[]; wikiPaths: string[] }> {
  const items = await queryAll<{ relativePath?: string; wikiRepository?: boolean }>({ index: GSI2, pk: storageIndexPk(kind, storage), projection: ["relativePath", "wikiRepository"] });
  const paths = items.map((item) => String(item.relativePath ?? ""));
  const wikiPaths = kind === "project" ? items.filter((item) => item.wikiRepository && item.relativePath).map((item) => projectWikiPath(item.relativePath!)) : [];
  return { paths, wikiPaths };
}

async function totalSize(storage: string, paths: string[]): Promise<number> {
  const sizes = await mapConcurrently(paths, SIZE_CONCURRENCY, (path) => (path ? repositorySize(storage, path) : Promise.resolve(0)));
  return sizes.reduce((sum, size) => sum + size, 0);
}

const inventoryOf = async (storage: string, paths: string[]): Promise<KindInventory> => ({ count: paths.length, size_bytes: await totalSize(storage, paths) });

async function kindInventory(storage: string, kind: ContainerKind): Promise<KindInventory> {
  return inventoryOf(storage, (await repositoriesOn(storage, kind)).paths);
}

async function projectInventory(storage: string): Promise<{ projects: KindInventory; project_wikis: KindInventory }> {
  const { paths, wikiPaths } = await repositoriesOn(storage, "project");
  const [projects, project_wikis] = await Promise.all([inventoryOf(storage, paths), inventoryOf(storage, wikiPaths)]);
  return { projects, project_wikis };
}

/** Every configured storage, in configuration order. */
export async function storageInventory(): Promise<StorageInventory[]> {
  const strays = await strayTotals();
  return Promise.all(
    Object.entries(instanceConfig().storages).map(async ([name, s]) => {
      const [{ projects, project_wikis }, snippets, group_wikis] = await Promise.all([projectInventory(name), kindInventory(name, "snippet"), kindInventory(name, "group")]);
      const stray_folders = strays.get(name) ?? { count: 0, size_bytes: 0 };
      return { name, kind: s.kind, replicas: s.kind === "local" ? 1 : s.replicas.length, projects, project_wikis, snippets, group_wikis, stray_folders };
    }),
  );
}
