/**
 * Per-storage inventory: how many projects (and their wikis), snippets and group wikis live on each configured storage
 * and how many bytes their repositories take — the seed's "confirm that no project, snippet or group
 * remains on the source storage" as one call.
 *
 * Counts come from Queries on the storage index (gsi2 `STORAGE#<storage>#<kind>`, the same index
 * the storage moves page through), never a Scan; sizes are those the write path recorded on each
 * container (`repository-size.ts`), read with the same Query instead of walking the repositories;
 * stray temporary folders and git's leftovers of killed pushes (all replicas, `strays.ts`) apart.
 * The index is eventually consistent, like every GSI: a repository switched a moment ago may still
 * be counted on its old storage for a moment. A project's wiki lives beside the project on its storage; the same
 * Query of the project index tells which projects have one (`wikiRepository`).
 */
import { instanceConfig } from "../../platform/config.js";
import type { Sizes } from "../../hosting/domain/repository-size.js";
import { sizedRepositoriesOn } from "../../hosting/domain/sized-repositories.js";
import type { ContainerKind } from "../../hosting/domain/keys.js";
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
  /** What killed pushes left inside repositories (git's quarantine folders, temporary pack files). */
  git_leftovers: KindInventory;
}

/** Every repository of a kind on a storage, with its sizes; project wikis are those with `wikiRepository`. */
async function repositoriesOn(storage: string, kind: ContainerKind): Promise<Array<{ wiki: boolean; sizes: Sizes }>> {
  const items = await sizedRepositoriesOn<{ relativePath?: string; wikiRepository?: boolean }>(kind, storage, ["relativePath", "wikiRepository"]);
  return items.map((item) => ({ wiki: kind === "project" && !!item.wikiRepository && !!item.relativePath, sizes: item.sizes }));
}

const total = (sizes: number[]) => sizes.reduce((sum, size) => sum + size, 0);

async function kindInventory(storage: string, kind: ContainerKind): Promise<KindInventory> {
  const repositories = await repositoriesOn(storage, kind);
  return { count: repositories.length, size_bytes: total(repositories.map((r) => r.sizes.repositorySize)) };
}

async function projectInventory(storage: string): Promise<{ projects: KindInventory; project_wikis: KindInventory }> {
  const repositories = await repositoriesOn(storage, "project");
  const wikis = repositories.filter((r) => r.wiki);
  return {
    projects: { count: repositories.length, size_bytes: total(repositories.map((r) => r.sizes.repositorySize)) },
    project_wikis: { count: wikis.length, size_bytes: total(wikis.map((r) => r.sizes.wikiSize)) },
  };
}

/** Every configured storage, in configuration order. */
export async function storageInventory(): Promise<StorageInventory[]> {
  const strays = await strayTotals();
  return Promise.all(
    Object.entries(instanceConfig().storages).map(async ([name, s]) => {
      const [{ projects, project_wikis }, snippets, group_wikis] = await Promise.all([projectInventory(name), kindInventory(name, "snippet"), kindInventory(name, "group")]);
      const stray_folders = strays.folders.get(name) ?? { count: 0, size_bytes: 0 };
      const git_leftovers = strays.gitLeftovers.get(name) ?? { count: 0, size_bytes: 0 };
      return { name, kind: s.kind, replicas: s.kind === "local" ? 1 : s.replicas.length, projects, project_wikis, snippets, group_wikis, stray_folders, git_leftovers };
    }),
  );
}
