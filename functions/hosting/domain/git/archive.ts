/**
 * Repository archives (`GET /projects/:id/repository/archive[.format]`): the tree of one commit as
 * `git archive` lays it out, under GitLab's top folder `<project path>-<ref>-<sha>[-<path>]`.
 *
 * Entries are read from git one at a time while the client reads: the tar and zip producers below
 * are pull-driven generators, so at most one blob (isomorphic-git inflates an object whole, as
 * Gitaly's `git archive` holds one in its buffers) and one output chunk are held at any moment.
 */
import { crc32, deflateRaw } from "node:zlib";
import { promisify } from "node:util";
import { BLOCK, encodeHeader, padding } from "./tar-header.js";
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { requireRepository } from "./lifecycle.js";
import { defaultBranchOf } from "./read.js";
import { resolveCommit, type ObjectCache } from "./refs.js";

// Pure: bundles that re-export this module without archiving (through the git index) drop it.
const deflate = /* @__PURE__ */ promisify(deflateRaw);
/** Blob content is handed on in slices of this size, so a slow reader never makes us copy more. */
export const ARCHIVE_CHUNK = 64 * 1024;

export interface ArchiveRequest {
  /** A branch, tag or commit; the default branch when absent. */
  sha?: string;
  /** A folder (or file) of the tree: only it is archived, under its full path. */
  path?: string;
  /** Paths left out, with everything below them (git's `:(exclude)` pathspecs, as Gitaly passes them). */
  excludePaths?: string[];
}

export interface ArchiveSource {
  gitdir: string;
  commit: string;
  /** The ref as asked for (or the default branch), as GitLab names the top folder after it. */
  ref: string;
  /** Committer time of the commit, seconds: every entry's modification time, as `git archive` sets it. */
  mtime: number;
  /** Root tree of the commit. */
  tree: string;
  path: string;
  excludePaths: string[];
  cache: ObjectCache;
}

/** The commit and tree to archive, or undefined when the ref, the commit or the path does not exist. */
export async function resolveArchive(storage: string, rel: string, req: ArchiveRequest): Promise<ArchiveSource | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const ref = req.sha ?? (await defaultBranchOf(gitdir));
  if (ref === undefined) return undefined;
  const commit = await resolveCommit(gitdir, ref, cache);
  if (!commit) return undefined;
  const { commit: parsed } = await git.readCommit({ fs, gitdir, oid: commit, cache });
  const path = (req.path ?? "").replace(/^\/+|\/+$/g, "");
  if (path && !(await entryAt(gitdir, parsed.tree, path, cache))) return undefined;
  const excludePaths = (req.excludePaths ?? []).map((p) => p.replace(/^\/+|\/+$/g, "")).filter((p) => p !== "");
  return { gitdir, commit, ref, mtime: parsed.committer.timestamp, tree: parsed.tree, path, excludePaths, cache };
}

async function entryAt(gitdir: string, tree: string, path: string, cache: ObjectCache) {
  let oid = tree;
  let found: { oid: string; type: string } | undefined;
  for (const part of path.split("/")) {
    if (found && found.type !== "tree") return undefined;
    const entries = (await git.readTree({ fs, gitdir, oid, cache })).tree;
    found = entries.find((e) => e.path === part);
    if (!found) return undefined;
    oid = found.oid;
  }
  return found;
}

/** GitLab's top folder (and file name without extension): `<project>-<ref>-<sha>[-<path>]`. */
export function archivePrefix(projectPath: string, source: Pick<ArchiveSource, "ref" | "commit" | "path">): string {
  const parts = [projectPath, source.ref.replaceAll("/", "-"), source.commit];
  if (source.path) parts.push(source.path.replaceAll("/", "-"));
  return parts.join("-");
}

interface Entry {
  /** Below the top folder. */
  path: string;
  kind: "dir" | "file" | "symlink";
  /** Git's mode: 040000, 100644, 100755, 120000, 160000. */
  mode: string;
  oid: string;
}

const within = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

/**
 * Every entry, depth first in git's tree order, folders before their contents. Submodules become
 * empty folders, as `git archive` writes them.
 */
async function* entries(src: ArchiveSource): AsyncGenerator<Entry> {
  const visit = async function* (oid: string, prefix: string): AsyncGenerator<Entry> {
    for (const e of (await git.readTree({ fs, gitdir: src.gitdir, oid, cache: src.cache })).tree) {
      const path = prefix ? `${prefix}/${e.path}` : e.path;
      if (src.excludePaths.some((x) => within(path, x))) continue;
      // Outside the asked-for path, only the folders that lead to it are walked (not written).
      const inside = !src.path || within(path, src.path);
      if (!inside && !within(src.path, path)) continue;
      if (e.type === "tree" || e.type === "commit") {
        if (inside) yield { path, kind: "dir", mode: e.mode, oid: e.oid };
        if (e.type === "tree") yield* visit(e.oid, path);
      } else if (inside) yield { path, kind: e.mode === "120000" ? "symlink" : "file", mode: e.mode, oid: e.oid };
    }
  };
  yield* visit(src.tree, "");
}

async function readBlob(src: ArchiveSource, oid: string): Promise<Buffer> {
  const { blob } = await git.readBlob({ fs, gitdir: src.gitdir, oid, cache: src.cache });
  return Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
}

function* slices(data: Buffer): Generator<Buffer> {
  for (let at = 0; at < data.length; at += ARCHIVE_CHUNK) yield data.subarray(at, at + ARCHIVE_CHUNK);
}

/** Permissions as `git archive` writes them in a tar (its default umask 002). */
const unixMode = (e: Entry) => (e.kind === "dir" ? 0o775 : e.kind === "symlink" ? 0o777 : e.mode === "100755" ? 0o775 : 0o664);
/** In a zip, `git archive` records 755 for folders and executables, 644 for the rest. */
const zipMode = (e: Entry) => (e.kind === "symlink" ? 0o777 : e.kind === "dir" || e.mode === "100755" ? 0o755 : 0o644);

/** The uncompressed tar, headers from the backup's tar writer. */
export async function* tarArchive(src: ArchiveSource, prefix: string): AsyncGenerator<Buffer> {
  const mtime = src.mtime;
  yield Buffer.concat(encodeHeader({ path: `${prefix}/`, type: "dir", size: 0, mode: 0o775, mtime }));
  for await (const e of entries(src)) {
    const path = `${prefix}/${e.path}`;
    if (e.kind === "dir") {
      yield Buffer.concat(encodeHeader({ path, type: "dir", size: 0, mode: unixMode(e), mtime }));
      continue;
    }
    const data = await readBlob(src, e.oid);
    if (e.kind === "symlink") {
      yield Buffer.concat(encodeHeader({ path, type: "symlink", size: 0, mode: unixMode(e), mtime, linkname: data.toString("utf8") }));
      continue;
    }
    yield Buffer.concat(encodeHeader({ path, type: "file", size: data.length, mode: unixMode(e), mtime }));
    yield* slices(data);
    yield Buffer.alloc(padding(data.length));
  }
  yield Buffer.alloc(BLOCK * 2);
}

const ZIP_LIMIT = 0xffffffff;

/** MS-DOS date and time (the zip header's), from seconds since the epoch, in UTC. */
function dosDateTime(seconds: number): { time: number; date: number } {
  const d = new Date(Math.max(seconds, 315532800) * 1000);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

interface ZipRecord {
  name: Buffer;
  crc: number;
  method: number;
  compressed: number;
  size: number;
  offset: number;
  external: number;
}

/**
 * A zip written front to back: each blob is read (and deflated) before its local header, so the
 * header carries its real sizes and CRC and no data descriptor is needed; the central directory,
 * a few dozen bytes per entry, is written at the end. Archives and entries stay below 4 GiB (no
 * ZIP64): larger ones end the stream with an error rather than a corrupt file.
 */
export async function* zipArchive(src: ArchiveSource, prefix: string): AsyncGenerator<Buffer> {
  const { time, date } = dosDateTime(src.mtime);
  const records: ZipRecord[] = [];
  let offset = 0;
  const entry = async function* (path: string, kind: Entry["kind"], mode: number, data: Buffer): AsyncGenerator<Buffer> {
    const name = Buffer.from(path, "utf8");
    const crc = data.length ? crc32(data) : 0;
    const packed = kind === "file" && data.length > 0 ? await deflate(data) : data;
    const stored = packed.length >= data.length;
    const body = stored ? data : packed;
    if (offset + 30 + name.length + body.length > ZIP_LIMIT) throw new Error("the zip archive would exceed 4 GiB");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const typeBits = kind === "dir" ? 0o040000 : kind === "symlink" ? 0o120000 : 0o100000;
    records.push({ name, crc: crc >>> 0, method: stored ? 0 : 8, compressed: body.length, size: data.length, offset, external: (((typeBits | mode) << 16) | (kind === "dir" ? 0x10 : 0)) >>> 0 });
    offset += local.length + name.length + body.length;
    yield Buffer.concat([local, name]);
    yield* slices(body);
  };
  yield* entry(`${prefix}/`, "dir", 0o755, Buffer.alloc(0));
  for await (const e of entries(src)) {
    const path = `${prefix}/${e.path}${e.kind === "dir" ? "/" : ""}`;
    yield* entry(path, e.kind, zipMode(e), e.kind === "dir" ? Buffer.alloc(0) : await readBlob(src, e.oid));
  }
  const centralStart = offset;
  for (const r of records) {
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the external attributes carry the mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(r.method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(r.crc, 16);
    central.writeUInt32LE(r.compressed, 20);
    central.writeUInt32LE(r.size, 24);
    central.writeUInt16LE(r.name.length, 28);
    central.writeUInt32LE(r.external, 38);
    central.writeUInt32LE(r.offset, 42);
    offset += central.length + r.name.length;
    yield Buffer.concat([central, r.name]);
  }
  if (records.length > 0xffff || offset > ZIP_LIMIT) throw new Error("the zip archive would need ZIP64");
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(records.length, 8);
  end.writeUInt16LE(records.length, 10);
  end.writeUInt32LE(offset - centralStart, 12);
  end.writeUInt32LE(centralStart, 16);
  yield end;
}
