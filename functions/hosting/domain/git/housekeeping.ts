/**
 * Housekeeping of one repository, GitLab's `POST /projects/:id/housekeeping`. Git never runs here, so
 * there is no `git gc`: what it does is what keeps these repositories quick to read — loose refs packed
 * into `packed-refs` (each write adds one file per new branch or tag, and every ref listing reads them
 * all) — on the primary, then mirrored to every replica. Objects stay as they are: every write adds
 * loose objects only, and none becomes unreachable except by deleting refs.
 */
import { requireRepository } from "./lifecycle.js";
import { withRepositoryMutex } from "./mutex.js";
import { packRefs } from "./refs.js";
import { mirrorToReplicas } from "./replica-sync.js";
import { replicaPaths } from "./storage.js";

export async function housekeep(storage: string, rel: string): Promise<{ packedRefs: number }> {
  const paths = replicaPaths(storage, rel);
  return withRepositoryMutex(paths[0]!, async () => {
    const packedRefs = await packRefs(await requireRepository(storage, rel));
    if (packedRefs > 0) await mirrorToReplicas(paths);
    return { packedRefs };
  });
}
