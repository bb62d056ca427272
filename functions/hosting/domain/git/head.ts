/**
 * Changing which branch HEAD (the default branch) points at.
 */
import { join } from "node:path";
import { GitActionError } from "./errors.js";
import { writeFileAtomic } from "./fs-util.js";
import { requireRepository } from "./lifecycle.js";
import { withRepositoryMutex } from "./mutex.js";
import { resolveExactRef } from "./refs.js";
import { mirrorToReplicas } from "./replica-sync.js";
import { replicaPaths } from "./storage.js";

export async function setDefaultBranch(storage: string, rel: string, branch: string): Promise<void> {
  const paths = replicaPaths(storage, rel);
  await withRepositoryMutex(paths[0]!, async () => {
    const gitdir = await requireRepository(storage, rel);
    if (!(await resolveExactRef(gitdir, `refs/heads/${branch}`))) {
      throw new GitActionError(`Branch '${branch}' does not exist`);
    }
    await writeFileAtomic(gitdir, join(gitdir, "HEAD"), `ref: refs/heads/${branch}\n`);
    await mirrorToReplicas(paths);
  });
}
