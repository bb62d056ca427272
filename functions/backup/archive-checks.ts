/**
 * What verification proves about an archive's repositories and items beyond each entry's bytes,
 * so that restore can never make half an instance live (`verify.ts` runs these in its one pass):
 * - each repository's entries are together, as backup writes them (`RepositoryRuns`), so a restore
 *   has each repository whole before it reads on;
 * - each repository's refs checksum, computed from the archived ref files exactly as it is computed
 *   on disk (`hosting/domain/git/refs.ts`), is the one the manifest recorded;
 * - no two repositories share a path (or one lies inside another) on a storage, and none is on a
 *   path of the temporary names restore and moves use;
 * - the table holds every item once, no item of the installation (`restore-marker.ts`), and its
 *   containers point at exactly the repositories the archive holds, where the archive holds them.
 */
import { posix } from "node:path";
import { checksumOfRefs, EMPTY_CHECKSUM } from "../hosting/domain/git/checksum.js";
import { TEMP_PREFIX } from "../hosting/domain/git/fs-util.js";
import { isLooseRefName, resolveRefFiles } from "../hosting/domain/git/refs.js";
import { containerLabel, repositoriesOf } from "./containers.js";
import { ArchiveError } from "./errors.js";
import { repositoryPrefix, type Manifest, type RepositoryRecord } from "./manifest.js";
import { isInstallationKey } from "./restore-marker.js";
import { keyId, keyOf, type RawItem } from "./table-io.js";

/** A loose ref is one line; git itself refuses anything near this size. */
const MAX_REF_FILE = 64 << 10;
const MAX_PACKED_REFS = 256 << 20;

/** `repositories/<kind>/<id>` for an entry of a repository, else undefined. */
export const ownerOf = (path: string) => (path.startsWith("repositories/") ? path.split("/").slice(0, 3).join("/") : undefined);

/** Each repository's entries must form one run: once another entry comes, that repository is complete. */
export class RepositoryRuns {
  private current: string | undefined;
  private readonly finished = new Set<string>();

  /** The repository `path` belongs to, and the one whose run it ends (if any). */
  next(path: string): { owner: string | undefined; ended: string | undefined } {
    const owner = ownerOf(path);
    if (owner === this.current) return { owner, ended: undefined };
    const ended = this.current;
    if (ended) this.finished.add(ended);
    if (owner && this.finished.has(owner)) {
      throw new ArchiveError(`the entries of ${owner} are not together (${path} comes after entries of something else), as no backup writes them`);
    }
    this.current = owner;
    return { owner, ended };
  }

  /** At the end of the archive: the repository still open. */
  end(): string | undefined {
    const last = this.current;
    this.current = undefined;
    return last;
  }
}

/** One repository's ref files, gathered while its entries pass, and the checksum they give. */
export class RefFiles {
  private readonly files = new Map<string, string>();

  /** Whether the checksum needs this file's content (refs, packed-refs, files at the top a symbolic ref may name). */
  static wants(inner: string, size: number): boolean {
    if (inner === "packed-refs") {
      if (size > MAX_PACKED_REFS) throw new ArchiveError(`a packed-refs file of ${size} bytes is implausibly large`);
      return true;
    }
    if (inner.startsWith("refs/")) {
      if (size > MAX_REF_FILE) throw new ArchiveError(`the ref file ${inner} of ${size} bytes is implausibly large`);
      return isLooseRefName(posix.basename(inner));
    }
    return !inner.includes("/") && size <= MAX_REF_FILE;
  }

  add(inner: string, content: Buffer): void {
    this.files.set(inner, content.toString("utf8").trim());
  }

  async checksum(): Promise<string> {
    const loose = new Map([...this.files].filter(([name]) => name.startsWith("refs/")));
    const readOther = (path: string) => this.files.get(posix.normalize(path));
    return checksumOfRefs(await resolveRefFiles({ packed: this.files.get("packed-refs"), loose, readOther }));
  }
}

export function checkChecksums(manifest: Manifest, computed: Map<string, string>): void {
  for (const r of manifest.repositories) {
    const got = computed.get(repositoryPrefix(r)) ?? EMPTY_CHECKSUM;
    if (got !== r.checksum) {
      throw new ArchiveError(`${containerLabel(r)}'s refs in the archive have checksum ${got}, the manifest recorded ${r.checksum} (a ref was changed after the backup)`);
    }
  }
}

/** No segment a writer's temporary folders use: such a path could name a restore's staging area. */
function usablePath(path: string): boolean {
  const parts = path.split("/");
  return !posix.isAbsolute(path) && parts.every((p) => p !== "" && p !== "." && p !== ".." && !/[\\\0]/.test(p) && !p.includes(TEMP_PREFIX));
}

/**
 * Every repository lands on its own path: two records on one path (after `storageOf` maps the
 * storages), or one inside the other, would overwrite each other when renamed into place.
 * Returns what is wrong, for the caller to say in its own terms.
 */
export function placementProblem(records: RepositoryRecord[], storageOf: (storage: string) => string = (s) => s): string | undefined {
  const unusable = records.find((r) => !usablePath(r.relative_path));
  if (unusable) return `${containerLabel(unusable)} has an unusable repository path ${JSON.stringify(unusable.relative_path)}`;
  const placed = records.map((r) => ({ r, at: `${storageOf(r.storage)}:${r.relative_path}` }));
  placed.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  for (let i = 1; i < placed.length; i++) {
    const [a, b] = [placed[i - 1]!, placed[i]!];
    if (b.at === a.at) return `${containerLabel(a.r)} and ${containerLabel(b.r)} would both be restored to ${a.at}`;
    if (b.at.startsWith(`${a.at}/`)) return `${containerLabel(b.r)} would be restored inside the repository of ${containerLabel(a.r)} (${b.at})`;
  }
  return undefined;
}

/** The table's items as verification reads them: each key once, and where each container's repositories are. */
export class TableIndex {
  private readonly keys = new Set<string>();
  private readonly repositories = new Map<string, { storage: string; relativePath: string }>();

  add(item: RawItem, file: string): void {
    const key = keyOf(item);
    if (isInstallationKey(key)) throw new ArchiveError(`${file} holds the item ${key.pk}/${key.sk}, which belongs to an installation, not to a backup`);
    const id = keyId(key);
    if (this.keys.has(id)) throw new ArchiveError(`the table files hold the item ${key.pk}/${key.sk} twice`);
    this.keys.add(id);
    for (const repo of repositoriesOf(item)) this.repositories.set(containerLabel(repo), { storage: repo.storage, relativePath: repo.relativePath });
  }

  /** Containers and repositories agree, both ways: no item points at a repository the archive lacks. */
  checkContainers(manifest: Manifest): void {
    const records = new Map(manifest.repositories.map((r) => [containerLabel(r), r]));
    for (const [label, at] of this.repositories) {
      const record = records.get(label);
      if (!record) throw new ArchiveError(`the table's ${label} has a repository at ${at.storage}:${at.relativePath}, which the archive does not hold`);
      if (record.storage !== at.storage || record.relative_path !== at.relativePath) {
        throw new ArchiveError(`the table's ${label} has its repository at ${at.storage}:${at.relativePath}, the manifest at ${record.storage}:${record.relative_path}`);
      }
    }
    const orphan = manifest.repositories.find((r) => !this.repositories.has(containerLabel(r)));
    if (orphan) throw new ArchiveError(`the archive holds the repository of ${containerLabel(orphan)}, which no item of its table points at`);
  }
}
