/**
 * GitLab's repository snapshot (`GET /projects/:id/snapshot`): the bare repository as an uncompressed
 * tar of what Gitaly's snapshot holds — `HEAD`, `packed-refs`, `refs/` and `objects/` — produced
 * file by file while the client reads, so no snapshot is ever held whole in memory.
 *
 * Like GitLab's, a snapshot taken during a write is "possibly inconsistent" in one way only: the refs
 * are read first and git only ever adds objects, so every object the archived refs name is in it.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import { BLOCK, encodeHeader, padding } from "./tar-header.js";
import { archiveStream } from "./archive-stream.js";
import { isErrno, listDir } from "./fs-util.js";
import { isInFlight } from "./in-flight.js";
import { requireRepository } from "./lifecycle.js";

const CHUNK = 1 << 20;
const TOP_LEVEL = ["HEAD", "packed-refs", "refs", "objects"];

export async function repositorySnapshot(storage: string, rel: string): Promise<ReadableStream<Uint8Array>> {
  const gitdir = await requireRepository(storage, rel);
  return archiveStream(tarEntries(gitdir));
}

/** Folders and files below `rel`, depth first; `objects/` is listed only when its turn comes. */
async function* walk(gitdir: string, rel: string): AsyncGenerator<{ path: string; dir: boolean }> {
  for (const entry of (await listDir(join(gitdir, rel))).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = `${rel}/${entry.name}`;
    if (isInFlight(path)) continue;
    yield { path, dir: entry.isDirectory };
    if (entry.isDirectory) yield* walk(gitdir, path);
  }
}

async function* tarEntries(gitdir: string): AsyncGenerator<Uint8Array> {
  const now = Date.now() / 1000;
  const topLevel = await listDir(gitdir);
  for (const top of TOP_LEVEL) {
    const listing = topLevel.find((e) => e.name === top);
    if (!listing) continue;
    if (listing.isDirectory) {
      yield Buffer.concat(encodeHeader({ path: top, type: "dir", size: 0, mode: 0o755, mtime: now }));
      for await (const entry of walk(gitdir, top)) {
        if (entry.dir) yield Buffer.concat(encodeHeader({ path: entry.path, type: "dir", size: 0, mode: 0o755, mtime: now }));
        else yield* fileEntry(gitdir, entry.path);
      }
    } else yield* fileEntry(gitdir, top);
  }
  yield Buffer.alloc(BLOCK * 2);
}

/**
 * One file, read from the inode opened (a ref replaced by rename meanwhile is read whole as it was);
 * a file gone since the listing (a deleted ref) is left out.
 */
async function* fileEntry(gitdir: string, path: string): AsyncGenerator<Uint8Array> {
  let fh;
  try {
    fh = await open(join(gitdir, path), "r");
  } catch (err) {
    if (isErrno(err, "ENOENT")) return;
    throw err;
  }
  try {
    const st = await fh.stat();
    yield Buffer.concat(encodeHeader({ path, type: "file", size: st.size, mode: st.mode, mtime: st.mtimeMs / 1000 }));
    for (let done = 0; done < st.size; ) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, st.size - done));
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, done);
      if (bytesRead === 0) throw new Error(`${path} shrank while the snapshot was read`);
      done += bytesRead;
      yield chunk.subarray(0, bytesRead);
    }
    yield Buffer.alloc(padding(st.size));
  } finally {
    await fh.close();
  }
}
