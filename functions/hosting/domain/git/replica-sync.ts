/**
 * Copies a bare repository directory onto another one, file by file, so that the target ends with
 * exactly the same refs, objects, HEAD and config.
 *
 * Why file copies and not "apply the same write on every replica": objects are content-addressed
 * and never change once written, so copying the missing ones is cheap and trivially correct, and the
 * same routine repairs a replica that missed an earlier write (a crash between two replicas) and
 * performs whole-repository moves between storages. Git itself never runs here (Lambda), and no
 * pack negotiation is needed because both sides are on a filesystem we can read.
 *
 * Ordering is what keeps readers safe:
 * - `objects-first` (mirroring a write to live replicas): objects land before the refs that point
 *   at them, and a pack's `.idx` (which is how git discovers packs) only after its `.pack`; so a
 *   reader of a replica never sees a ref to a missing object.
 * - `refs-first` (copying into a fresh, not-yet-visible directory): refs are snapshotted before
 *   objects, so even if the source gains commits mid-copy, every object reachable from the copied
 *   refs is already present in the source by the time objects are copied (git only ever adds them).
 */
import { copyFile, mkdir, readFile, rm, unlink } from "node:fs/promises";
import { join } from "node:path";
import { copyFileAtomic, isErrno, listDir } from "./fs-util.js";
import { isInFlight } from "./in-flight.js";
import { mapConcurrently } from "../../../platform/concurrency.js";

export type CopyOrder = "objects-first" | "refs-first";

const COPY_CONCURRENCY = 16;

export async function syncRepositoryDir(source: string, target: string, order: CopyOrder): Promise<void> {
  await mkdir(target, { recursive: true });
  const [src, dst] = await Promise.all([walk(source, true), walk(target, false)]);
  const existing = new Set(dst.files);

  // Empty directories matter: git only recognises a repository with `refs/` and `objects/`.
  for (const dir of src.dirs) await mkdir(join(target, dir), { recursive: true });

  const groups = groupForCopy(src.files);
  const phases =
    order === "objects-first"
      ? [groups.objectData, groups.packIndexes, groups.refs, groups.rest]
      : [groups.refs, groups.rest, groups.objectData, groups.packIndexes];
  // A `refs-first` target is not visible to readers yet, so its files need no temp-and-rename each.
  const copy = order === "refs-first" ? (rel: string) => copyFile(join(source, rel), join(target, rel)) : (rel: string) => copyFileAtomic(target, join(source, rel), join(target, rel));
  for (const phase of phases) {
    await mapConcurrently(phase, COPY_CONCURRENCY, async (rel) => {
      if (await needsCopy(source, target, rel, existing)) await copy(rel);
    });
  }

  // Remove what the source no longer has: refs first (a deleted branch), then objects, then folders.
  const wanted = new Set(src.files);
  const extra = dst.files.filter((rel) => !wanted.has(rel));
  const extraOrdered = [...extra.filter((r) => !r.startsWith("objects/")), ...extra.filter((r) => r.startsWith("objects/"))];
  for (const rel of extraOrdered) {
    await unlink(join(target, rel)).catch((err) => {
      if (!isErrno(err, "ENOENT")) throw err;
    });
  }
  const wantedDirs = new Set(src.dirs);
  const extraDirs = dst.dirs.filter((d) => !wantedDirs.has(d)).sort((a, b) => b.length - a.length);
  for (const dir of extraDirs) await rm(join(target, dir), { recursive: true, force: true });
}

/** Objects are immutable by name: if the target has the file, it has the same bytes. */
function isImmutable(rel: string): boolean {
  return /^objects\/[0-9a-f]{2}\/[0-9a-f]{38,62}$/.test(rel) || /^objects\/pack\/pack-[0-9a-f]+\.[a-z]+$/.test(rel);
}

async function needsCopy(source: string, target: string, rel: string, existing: Set<string>): Promise<boolean> {
  if (!existing.has(rel)) return true;
  if (isImmutable(rel)) return false;
  const [a, b] = await Promise.all([readFile(join(source, rel)), readFile(join(target, rel))]);
  return !a.equals(b);
}

function groupForCopy(files: string[]) {
  const objectData: string[] = [];
  const packIndexes: string[] = [];
  const refs: string[] = [];
  const rest: string[] = [];
  for (const rel of files) {
    if (rel.startsWith("objects/pack/") && rel.endsWith(".idx")) packIndexes.push(rel);
    else if (rel.startsWith("objects/")) objectData.push(rel);
    else if (rel.startsWith("refs/") || rel === "packed-refs") refs.push(rel);
    else rest.push(rel);
  }
  return { objectData, packIndexes, refs, rest };
}

/**
 * Relative paths of all files and folders. In the source, lock files, temporary files and git's
 * incoming objects are in-flight writes (`in-flight.ts`) and are skipped; in the target they are
 * listed so stale ones get pruned.
 */
async function walk(root: string, isSource: boolean): Promise<{ files: string[]; dirs: string[] }> {
  const files: string[] = [];
  const dirs: string[] = [];
  const visit = async (rel: string): Promise<void> => {
    for (const entry of await listDir(rel ? join(root, rel) : root)) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (isSource && isInFlight(childRel)) continue;
      if (entry.isDirectory) {
        dirs.push(childRel);
        await visit(childRel);
      } else {
        files.push(childRel);
      }
    }
  };
  await visit("");
  return { files, dirs };
}

/** After a write to the primary (`paths[0]`), bring every other replica to the same state. */
export async function mirrorToReplicas(paths: string[]): Promise<void> {
  const [primary, ...others] = paths;
  if (!primary) return;
  await Promise.all(others.map((replica) => syncRepositoryDir(primary, replica, "objects-first")));
}
