/**
 * Small filesystem primitives shared by the write paths. Every file that a concurrent reader might
 * open (refs, HEAD, objects) is written to a temporary name and renamed into place, so readers see
 * the old or the new content, never a torn write.
 */
import { randomBytes } from "node:crypto";
import { copyFile, mkdir, readdir, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** Temporary names start with this; `replica-sync.ts` never copies them and prunes stale ones. */
export const TEMP_PREFIX = "tmp_forgeline_";

export function tempName(): string {
  return `${TEMP_PREFIX}${process.pid}_${randomBytes(6).toString("hex")}`;
}

/**
 * Temporary files live in the repository root: git never interprets unknown root files, whereas a
 * stray file under `refs/` would be read as a ref and one under `objects/xx/` as a corrupt object.
 */
export async function writeFileAtomic(repoDir: string, path: string, data: string | Buffer): Promise<void> {
  const tmp = join(repoDir, tempName());
  await writeFile(tmp, data);
  await moveIntoPlace(tmp, path);
}

export async function copyFileAtomic(repoDir: string, from: string, to: string): Promise<void> {
  const tmp = join(repoDir, tempName());
  await copyFile(from, tmp);
  await moveIntoPlace(tmp, to);
}

async function moveIntoPlace(tmp: string, path: string): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

export async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if (isErrno(err, "ENOENT") || isErrno(err, "ENOTDIR")) return false;
    throw err;
  }
}

/** Entries of a directory, or none when it does not exist. */
export async function listDir(path: string): Promise<Array<{ name: string; isDirectory: boolean }>> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, isDirectory: e.isDirectory() }));
  } catch (err) {
    if (isErrno(err, "ENOENT") || isErrno(err, "ENOTDIR")) return [];
    throw err;
  }
}

/** Total bytes of the regular files below `path` (0 when it does not exist). */
export async function directorySize(path: string): Promise<number> {
  let total = 0;
  for (const entry of await listDir(path)) {
    const child = join(path, entry.name);
    if (entry.isDirectory) total += await directorySize(child);
    else total += (await stat(child).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/**
 * Removes a directory tree without ever leaving a half-deleted repository under its real name:
 * it is first renamed to a sibling temporary name (atomic), then deleted at leisure.
 */
export async function removeDirectory(path: string): Promise<void> {
  const doomed = `${path}.${tempName()}.deleting`;
  try {
    await rename(path, doomed);
  } catch (err) {
    if (isErrno(err, "ENOENT")) return;
    throw err;
  }
  await rm(doomed, { recursive: true, force: true });
}

export function isErrno(err: unknown, code: string): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === code;
}
