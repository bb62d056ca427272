/**
 * Housekeeping of one repository, GitLab's `POST /projects/:id/housekeeping`. Git never runs here, so
 * there is no `git gc`: what it does is what keeps these repositories quick to read — loose refs packed
 * into `packed-refs` (each write adds one file per new branch or tag, and every ref listing reads them
 * all) — on the primary, then mirrored to every replica. Objects stay as they are: every write adds
 * loose objects only, and none becomes unreachable except by deleting refs. What `git gc` would also
 * prune is removed: the incoming objects and temporary pack files a killed push left (`in-flight.ts`).
 */
import { removeGitLeftovers } from "./in-flight.js";
import { requireRepository } from "./lifecycle.js";
import { withRepositoryMutex } from "./mutex.js";
import { packRefs } from "./refs.js";
import { mirrorToReplicas } from "./replica-sync.js";
import { replicaPaths } from "./storage.js";

/** Runs under the repository's write lease (the caller's), as every write does. */
export async function housekeep(storage: string, rel: string): Promise<{ packedRefs: number; gitLeftoversRemoved: number }> {
  const paths = replicaPaths(storage, rel);
  return withRepositoryMutex(paths[0]!, async () => {
    const gitdir = await requireRepository(storage, rel);
    // A push holds the same lease, so none of this repository runs now: whatever git left is a dead
    // push's (or one's that lost the lease, whose refs the fence refuses anyway).
    const removed = await Promise.all(paths.map((path) => removeGitLeftovers(path, { minAgeMs: 0 })));
    const packedRefs = await packRefs(gitdir);
    if (packedRefs > 0) await mirrorToReplicas(paths);
    return { packedRefs, gitLeftoversRemoved: removed.reduce((sum, n) => sum + n, 0) };
  });
}
