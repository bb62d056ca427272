/**
 * Creating, locating, measuring and deleting repositories on a storage.
 */
import { gitFs as fs } from "./git-fs.js";
import { rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { git } from "./engine.js";
import { GitActionError, RepositoryNotFoundError } from "./errors.js";
import { directorySize, isErrno, pathExists, removeDirectory, removeOwnLeftovers, tempName } from "./fs-util.js";
import { withRepositoryMutex } from "./mutex.js";
import { isValidBranchName } from "./refs.js";
import { mirrorToReplicas } from "./replica-sync.js";
import { primaryPath, replicaPaths } from "./storage.js";

// isomorphic-git's defaults target working copies on laptops (ignorecase, filemode=false); a
// server-side bare repository wants git's own defaults so the git CLI behaves normally on it.
const BARE_CONFIG = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n";

export async function initRepository(
  storage: string,
  rel: string,
  opts: { defaultBranch?: string } = {},
): Promise<void> {
  const branch = opts.defaultBranch ?? "main";
  if (!isValidBranchName(branch)) throw new GitActionError("Branch name is invalid");
  const paths = replicaPaths(storage, rel);
  const primary = paths[0]!;
  await withRepositoryMutex(primary, async () => {
    if (!(await isRepositoryDir(primary))) await createBare(primary, branch);
    await mirrorToReplicas(paths);
  });
}

/**
 * Builds the skeleton in a sibling temporary folder and renames it into place, so a crash never
 * leaves a half-initialised repository under the real name and a racing initialiser simply loses.
 */
async function createBare(path: string, defaultBranch: string): Promise<void> {
  const tmp = `${path}.${tempName()}`;
  try {
    await git.init({ fs, bare: true, gitdir: tmp, defaultBranch });
    await writeFile(join(tmp, "config"), BARE_CONFIG);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    if ((isErrno(err, "ENOTEMPTY") || isErrno(err, "EEXIST")) && (await isRepositoryDir(path))) return;
    throw err;
  }
}

/**
 * Removes the repository from every replica, and what the current writer left of it in an earlier,
 * interrupted try (see `writer.ts`). Missing copies are fine (idempotent). `beforeDelete` runs once
 * each copy is out of sight, before its files go: a seam for fault injection in tests.
 */
export async function removeRepository(storage: string, rel: string, opts: { beforeDelete?: (doomed: string) => Promise<void> | void } = {}): Promise<void> {
  const paths = replicaPaths(storage, rel);
  await withRepositoryMutex(paths[0]!, async () => {
    await Promise.all(paths.map((p) => removeDirectory(p, opts.beforeDelete)));
    await Promise.all(paths.map((p) => removeOwnLeftovers(p)));
  });
}

/** Whether the primary copy exists; replicas are kept in step by every write. */
export async function repositoryExists(storage: string, rel: string): Promise<boolean> {
  return isRepositoryDir(primaryPath(storage, rel));
}

/** Bytes on disk of the primary copy (0 when it does not exist). */
export async function repositorySize(storage: string, rel: string): Promise<number> {
  return directorySize(primaryPath(storage, rel));
}

/** The primary copy's directory, for operations that need the repository to exist. */
export async function requireRepository(storage: string, rel: string): Promise<string> {
  const path = primaryPath(storage, rel);
  if (!(await isRepositoryDir(path))) throw new RepositoryNotFoundError(storage, rel);
  return path;
}

export async function isRepositoryDir(path: string): Promise<boolean> {
  const checks = await Promise.all(["HEAD", "objects", "refs"].map((p) => pathExists(join(path, p))));
  return checks.every(Boolean);
}
