/**
 * Small filesystem primitives shared by the write paths. Every file that a concurrent reader might
 * open (refs, HEAD, objects) is written to a temporary name and renamed into place, so readers see
 * the old or the new content, never a torn write.
 */
import { randomBytes } from "node:crypto";
import { copyFile, mkdir, readdir, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { currentWriter } from "./writer.js";

/** Temporary names start with this; `replica-sync.ts` never copies them and prunes stale ones. */
export const TEMP_PREFIX = "tmp_forgeline_";

/**
 * `tmp_forgeline_<owner>_<hex>`: the owner is the current writer (a storage move, a write lease's
 * holder; see `writer.ts`), or this process when there is none.
 */
export function tempName(): string {
  return `${TEMP_PREFIX}${currentWriter()?.owner ?? `p${process.pid}`}_${randomBytes(6).toString("hex")}`;
}

/** A temporary sibling of a repository folder: `<name>.tmp_forgeline_<owner>_<hex>[.deleting|.replaced]`. */
const TEMP_SIBLING = /\.tmp_forgeline_([A-Za-z0-9-]+)_[A-Za-z0-9_]+(?:\.(deleting|replaced))?$/;

export function parseTempSibling(name: string): { owner: string; purpose: "copy" | "deleting" | "replaced" } | undefined {
  const m = TEMP_SIBLING.exec(name);
  return m ? { owner: m[1]!, purpose: (m[2] as "deleting" | "replaced" | undefined) ?? "copy" } : undefined;
}

/**
 * Removes the temporary siblings of `path` that the current writer left behind in an earlier,
 * interrupted try (a resumed move step): they carry its owner name. Nothing else is touched.
 */
export async function removeOwnLeftovers(path: string): Promise<void> {
  const owner = currentWriter()?.owner;
  if (!owner) return;
  const prefix = `${basename(path)}.${TEMP_PREFIX}${owner}_`;
  const mine = (await listDir(dirname(path))).filter((e) => e.isDirectory && e.name.startsWith(prefix));
  await Promise.all(mine.map((e) => rm(join(dirname(path), e.name), { recursive: true, force: true })));
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
export async function removeDirectory(path: string, beforeDelete?: (doomed: string) => Promise<void> | void): Promise<void> {
  const doomed = `${path}.${tempName()}.deleting`;
  try {
    await rename(path, doomed);
  } catch (err) {
    if (isErrno(err, "ENOENT")) return;
    throw err;
  }
  await beforeDelete?.(doomed);
  await rm(doomed, { recursive: true, force: true });
}

export function isErrno(err: unknown, code: string): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === code;
}
