/**
 * Reading and updating refs of one bare repository directory (`gitdir`).
 */
import { gitFs as fs } from "./git-fs.js";
import { mkdir, open, readFile, rename, rmdir, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { git, gitErrorCode } from "./engine.js";
import type { TagObject } from "isomorphic-git";
import { GitActionError } from "./errors.js";
import { isErrno, listDir, TEMP_PREFIX } from "./fs-util.js";
import { currentWriter } from "./writer.js";

export type ObjectCache = Record<string, unknown>;

/**
 * Every ref below `refs/` (branches, tags, anything else) with the object id it resolves to, read
 * straight from the files as git does: loose refs override `packed-refs`, symbolic refs are
 * followed, dangling ones left out. Checksums run this on every copy of a moving repository, where
 * going through isomorphic-git's generic ref API cost several times more.
 */
export async function listAllRefs(gitdir: string): Promise<Array<{ name: string; oid: string }>> {
  const [packed, loose] = await Promise.all([readRefFile(join(gitdir, "packed-refs")), readLooseRefs(gitdir, "refs")]);
  return resolveRefFiles({ packed, loose, readOther: (path) => readRefFile(join(gitdir, path)) });
}

/**
 * `listAllRefs` over ref files however they were read (a repository folder, or a backup archive
 * before it is written anywhere): `packed` is the `packed-refs` text, `loose` every ref file below
 * `refs/` by full name (trimmed), `readOther` a file a symbolic ref names outside `refs/`.
 */
export async function resolveRefFiles(files: {
  packed: string | undefined;
  loose: Map<string, string>;
  readOther: (path: string) => Promise<string | undefined> | string | undefined;
}): Promise<Array<{ name: string; oid: string }>> {
  const packed = parsePackedRefs(files.packed ?? "");
  const target = (name: string) => files.loose.get(name) ?? packed.get(name);
  const resolve = async (raw: string | undefined, depth: number): Promise<string | undefined> => {
    if (raw === undefined) return undefined;
    if (!raw.startsWith("ref:")) return OID.test(raw) ? raw : undefined;
    const to = raw.slice(4).trim();
    if (depth >= 5) return undefined;
    // A symbolic ref may point outside `refs/` (e.g. at HEAD): read that file.
    return resolve(to.startsWith("refs/") ? target(to) : await files.readOther(to), depth + 1);
  };
  const refs: Array<{ name: string; oid: string }> = [];
  for (const name of [...new Set([...packed.keys(), ...files.loose.keys()])].sort()) {
    const oid = await resolve(target(name), 0);
    if (oid) refs.push({ name, oid });
  }
  return refs;
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

async function readRefFile(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, "utf8")).trim();
  } catch (err) {
    if (isErrno(err, "ENOENT") || isErrno(err, "EISDIR") || isErrno(err, "ENOTDIR")) return undefined;
    throw err;
  }
}

/** `packed-refs`: "<oid> <name>" lines; `#` header and `^<oid>` peeled lines are not refs. */
function parsePackedRefs(text: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#") || line.startsWith("^")) continue;
    const space = line.indexOf(" ");
    if (space > 0) refs.set(line.slice(space + 1).trim(), line.slice(0, space));
  }
  return refs;
}

/** Whether a file below `refs/` is a ref: `.lock` files are updates in flight, temporary names half-written ones. */
export const isLooseRefName = (fileName: string) => !fileName.endsWith(".lock") && !fileName.startsWith(TEMP_PREFIX);

/** Loose ref files below `dir`, by full name. */
async function readLooseRefs(gitdir: string, dir: string, into = new Map<string, string>()): Promise<Map<string, string>> {
  for (const entry of await listDir(join(gitdir, dir))) {
    const name = `${dir}/${entry.name}`;
    if (entry.isDirectory) await readLooseRefs(gitdir, name, into);
    else if (isLooseRefName(entry.name)) {
      const raw = await readRefFile(join(gitdir, name));
      if (raw !== undefined) into.set(name, raw);
    }
  }
  return into;
}

/** The object id a full ref name points at, or undefined (missing or dangling symbolic ref). */
export async function resolveExactRef(gitdir: string, fullName: string): Promise<string | undefined> {
  try {
    return await git.resolveRef({ fs, gitdir, ref: fullName });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export async function listBranchNames(gitdir: string): Promise<string[]> {
  const names = await git.listRefs({ fs, gitdir, filepath: "refs/heads" });
  return names.filter((n) => !n.endsWith(".lock") && !n.endsWith("^{}"));
}

/**
 * Resolves what a user typed as `ref` (branch, tag, full ref name, full or abbreviated commit id,
 * `HEAD`) to a commit id, peeling annotated tags. Undefined when it names no commit.
 */
export async function resolveCommit(gitdir: string, ref: string, cache: ObjectCache): Promise<string | undefined> {
  if (ref === "" || ref.includes("\0")) return undefined;
  let oid: string | undefined;
  try {
    // Same lookup order as git: ref, refs/<ref>, refs/tags/<ref>, refs/heads/<ref>, remotes.
    oid = await git.resolveRef({ fs, gitdir, ref });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  if (!oid && /^[0-9a-f]{4,39}$/i.test(ref)) {
    try {
      oid = await git.expandOid({ fs, gitdir, oid: ref.toLowerCase(), cache });
    } catch (err) {
      if (!isNotFound(err) && !isAmbiguous(err)) throw err;
    }
  }
  for (let depth = 0; oid && depth < 10; depth++) {
    let parsed;
    try {
      parsed = await git.readObject({ fs, gitdir, oid, cache, format: "parsed" });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (parsed.type === "commit") return oid;
    if (parsed.type !== "tag") return undefined;
    oid = (parsed.object as TagObject).object;
  }
  return undefined;
}

/** The branch HEAD points at (its short name), whether or not that branch exists yet. */
export async function headBranch(gitdir: string): Promise<string | undefined> {
  const head = (await readFile(join(gitdir, "HEAD"), "utf8")).trim();
  return head.startsWith("ref: refs/heads/") ? head.slice("ref: refs/heads/".length) : undefined;
}

/**
 * git's branch-name rules (`git check-ref-format --branch`), which GitLab enforces as well.
 */
export function isValidBranchName(name: string): boolean {
  if (name.length === 0 || name.length > 255 || name === "HEAD" || name === "@") return false;
  if (name.startsWith("-") || name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) return false;
  if (name.includes("..") || name.includes("//") || name.includes("@{")) return false;
  // Control characters, space and the characters git reserves for revision syntax.
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  return name.split("/").every((part) => !part.startsWith(".") && !part.endsWith(".lock"));
}

/**
 * GitLab's `Gitlab::GitRefValidator`: git's rules, and no name that reads as a full ref name or an
 * option. Branches and tags are both checked with it.
 */
export function isValidRefName(name: string): boolean {
  if (/^(?:refs\/(?:heads|remotes|tags)\/|-)/.test(name)) return false;
  return isValidBranchName(name);
}

/**
 * Moves `fullName` to `newOid` only if it still points at `expectedOld` (undefined = must not
 * exist). Uses git's own protocol — exclusive `<ref>.lock`, re-check, rename — so a concurrent
 * writer in another process (or a real git push) can never be silently overwritten.
 */
export async function updateRef(
  gitdir: string,
  fullName: string,
  newOid: string,
  expectedOld: string | undefined,
): Promise<void> {
  if (expectedOld === undefined) await assertNoDirectoryFileConflict(gitdir, fullName);
  const path = join(gitdir, fullName);
  const lock = `${path}.lock`;
  await mkdir(dirname(path), { recursive: true });
  const writer = currentWriter();
  const handle = await acquireLock(lock, fullName, writer?.heldSince);
  try {
    try {
      if ((await resolveExactRef(gitdir, fullName)) !== expectedOld) throw concurrentUpdate(fullName);
      // Fencing: under the ref's lock, the writer proves it still holds its write lease.
      await writer?.fence?.();
      await handle.writeFile(`${newOid}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(lock, path);
  } catch (err) {
    await unlink(lock).catch(() => undefined);
    throw err;
  }
}

/**
 * Deletes `fullName` only if it still points at `expectedOld`, under the ref's lock and after the
 * writer proved it still holds its lease, as `updateRef` moves one. A ref that `git pack-refs`
 * packed is also dropped from `packed-refs` (rewritten under git's `packed-refs.lock`); folders
 * left empty go too, so a later ref may take their name.
 */
export async function deleteRef(gitdir: string, fullName: string, expectedOld: string): Promise<void> {
  const path = join(gitdir, fullName);
  const lock = `${path}.lock`;
  await mkdir(dirname(path), { recursive: true }); // a packed ref may have no folder of its own
  const writer = currentWriter();
  const handle = await acquireLock(lock, fullName, writer?.heldSince);
  try {
    await handle.close();
    if ((await resolveExactRef(gitdir, fullName)) !== expectedOld) throw concurrentUpdate(fullName);
    await writer?.fence?.();
    await dropPackedRef(gitdir, fullName);
    await unlink(path).catch((err: unknown) => {
      if (!isErrno(err, "ENOENT")) throw err;
    });
  } finally {
    await unlink(lock).catch(() => undefined);
  }
  await removeEmptyRefFolders(gitdir, fullName);
}

/** Folders below `refs/<kind>/` left empty by a ref that went, so a later ref may take their name. */
async function removeEmptyRefFolders(gitdir: string, fullName: string): Promise<void> {
  for (let dir = dirname(fullName); dir.split("/").length > 2; dir = dirname(dir)) {
    // Stops at the first folder that still holds something (ENOTEMPTY) or is gone already.
    if (!(await rmdir(join(gitdir, dir)).then(() => true, () => false))) break;
  }
}

/**
 * `git pack-refs --all --prune`: every loose ref that names an object (symbolic refs stay loose)
 * goes into `packed-refs`, rewritten under git's `packed-refs.lock` once the writer proved it still
 * holds its lease; then each loose file is removed under its own lock, only if it still says what
 * was packed. No ref ever changes value, so a reader sees the same refs at every step. Returns how
 * many loose refs were packed.
 */
export async function packRefs(gitdir: string): Promise<number> {
  const loose = [...(await readLooseRefs(gitdir, "refs"))].filter(([, raw]) => OID.test(raw));
  if (loose.length === 0) return 0;
  const writer = currentWriter();
  await rewritePackedRefs(gitdir, async () => {
    const refs = parsePackedRefs((await readRefFile(join(gitdir, "packed-refs"))) ?? "");
    for (const [name, oid] of loose) refs.set(name, oid);
    await writer?.fence?.();
    return [...refs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, oid]) => `${oid} ${name}\n`).join("");
  });
  for (const [name, oid] of loose) {
    const refLock = await acquireLock(join(gitdir, `${name}.lock`), name, writer?.heldSince).catch(() => undefined);
    if (!refLock) continue; // being updated right now: the loose file stays, and wins over the packed line
    try {
      await refLock.close();
      if ((await readRefFile(join(gitdir, name))) === oid) await unlink(join(gitdir, name));
    } finally {
      await unlink(join(gitdir, `${name}.lock`)).catch(() => undefined);
    }
    await removeEmptyRefFolders(gitdir, name);
  }
  return loose.length;
}

async function dropPackedRef(gitdir: string, fullName: string): Promise<void> {
  const text = await readRefFile(join(gitdir, "packed-refs"));
  if (text === undefined || !text.split("\n").some((line) => line.endsWith(` ${fullName}`))) return;
  await rewritePackedRefs(gitdir, (current) => {
    const lines = current.split("\n");
    const kept: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.endsWith(` ${fullName}`) && !line.startsWith("#")) {
        if (lines[i + 1]?.startsWith("^")) i++; // its peeled line goes with it
        continue;
      }
      if (line !== "") kept.push(line);
    }
    return `${kept.join("\n")}\n`;
  });
}

/** Rewrites `packed-refs` under git's `packed-refs.lock`; `contents` gets the file's text as the lock found it. */
async function rewritePackedRefs(gitdir: string, contents: (current: string) => string | Promise<string>): Promise<void> {
  const packedPath = join(gitdir, "packed-refs");
  const lock = `${packedPath}.lock`;
  const handle = await acquireLock(lock, "packed-refs", currentWriter()?.heldSince);
  try {
    await handle.writeFile(await contents((await readRefFile(packedPath)) ?? ""));
    await handle.sync();
    await handle.close();
    await rename(lock, packedPath);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(lock).catch(() => undefined);
    throw err;
  }
}

/**
 * A writer killed between taking and releasing a lock (Lambda timeout, a crash) would block the ref
 * forever, as with git. Writers hold a lock for milliseconds and callers serialise writers with a
 * lease, so a lock is an orphan, broken once, when it is older than `STALE_LOCK_MS`, or older than
 * the write lease the current writer holds (`leaseHeldSince`) by more than `CLOCK_SLACK_MS`: it was
 * taken under an earlier lease, whose holder is gone. The slack is there because a file's mtime comes
 * from the file system's clock (the kernel's coarse clock, a tick behind; an NFS server's on EFS),
 * not the process's: a lock taken just after our lease can carry a time just before it, and must
 * not be broken. A lock within the slack is left alone and the write fails as a concurrent update.
 */
const STALE_LOCK_MS = 5 * 60_000;
const CLOCK_SLACK_MS = 1_000;

async function acquireLock(lock: string, fullName: string, leaseHeldSince?: number) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await open(lock, "wx");
    } catch (err) {
      if (!isErrno(err, "EEXIST")) throw err;
      const takenAt = await stat(lock).then((s) => s.mtimeMs, () => Date.now());
      const orphan = Date.now() - takenAt >= STALE_LOCK_MS || (leaseHeldSince !== undefined && takenAt < leaseHeldSince - CLOCK_SLACK_MS);
      if (attempt > 0 || !orphan) throw concurrentUpdate(fullName);
      await unlink(lock).catch(() => undefined);
    }
  }
}

/** `refs/heads/a` and `refs/heads/a/b` cannot both exist (one would be a file, the other a folder). */
async function assertNoDirectoryFileConflict(gitdir: string, fullName: string): Promise<void> {
  for (const { name } of await listAllRefs(gitdir)) {
    if (name.startsWith(`${fullName}/`) || fullName.startsWith(`${name}/`)) {
      throw new GitActionError(`Could not create ${fullName}: it conflicts with the existing ref ${name}`);
    }
  }
}

function concurrentUpdate(fullName: string): GitActionError {
  return new GitActionError(`Could not update ${fullName}. Please refresh and try again.`);
}

export function isNotFound(err: unknown): boolean {
  return gitErrorCode(err) === "NotFoundError";
}

function isAmbiguous(err: unknown): boolean {
  return gitErrorCode(err) === "AmbiguousError";
}
