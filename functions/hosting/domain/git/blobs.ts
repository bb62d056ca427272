/**
 * Blobs by object id (`GET /projects/:id/repository/blobs/:sha`), as GitLab's `Gitlab::Git::Blob.raw`
 * finds them: an id (full, or abbreviated if unambiguous) that names a blob; anything else is no blob.
 */
import { gitFs as fs } from "./git-fs.js";
import { git, gitErrorCode } from "./engine.js";
import { requireRepository } from "./lifecycle.js";
import type { ObjectCache } from "./refs.js";

export async function readBlobById(storage: string, rel: string, sha: string): Promise<{ id: string; content: Buffer } | undefined> {
  if (!/^(?:[0-9a-f]{4,40}|[0-9a-f]{64})$/i.test(sha)) return undefined;
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  try {
    const oid = sha.length === 40 || sha.length === 64 ? sha.toLowerCase() : await git.expandOid({ fs, gitdir, oid: sha.toLowerCase(), cache });
    const object = await git.readObject({ fs, gitdir, oid, cache, format: "content" });
    if (object.type !== "blob") return undefined;
    return { id: oid, content: Buffer.from(object.object as Uint8Array) };
  } catch (err) {
    const code = gitErrorCode(err);
    if (code === "NotFoundError" || code === "AmbiguousError") return undefined;
    throw err;
  }
}
