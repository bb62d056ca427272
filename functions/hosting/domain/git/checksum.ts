/**
 * Gitaly's repository checksum, which GitLab compares before and after moving a repository:
 * for every ref, sha1("<oid> <refname>"), XORed together. Independent of packing and of object
 * layout, so two copies with the same refs have the same checksum. The HEAD symref is excluded.
 */
import { createHash } from "node:crypto";
import { RepositoryNotFoundError } from "./errors.js";
import { isRepositoryDir, requireRepository } from "./lifecycle.js";
import { listAllRefs } from "./refs.js";
import { replicaPaths } from "./storage.js";

export const EMPTY_CHECKSUM = "0".repeat(40);

/** Checksum of the primary copy. */
export async function checksum(storage: string, rel: string): Promise<string> {
  return checksumOfDir(await requireRepository(storage, rel));
}

/** Checksum of every replica, in configuration order; all equal when the cluster is healthy. */
export async function replicaChecksums(storage: string, rel: string): Promise<string[]> {
  return Promise.all(
    replicaPaths(storage, rel).map(async (path) => {
      if (!(await isRepositoryDir(path))) throw new RepositoryNotFoundError(storage, rel);
      return checksumOfDir(path);
    }),
  );
}

export async function checksumOfDir(gitdir: string): Promise<string> {
  return checksumOfRefs(await listAllRefs(gitdir));
}

/** The checksum of refs however they were read (`refs.ts` `resolveRefFiles`). */
export function checksumOfRefs(refs: Array<{ name: string; oid: string }>): string {
  const acc = Buffer.alloc(20);
  for (const { name, oid } of refs) {
    const digest = createHash("sha1").update(`${oid} ${name}`).digest();
    for (let i = 0; i < acc.length; i++) acc[i]! ^= digest[i]!;
  }
  return acc.toString("hex");
}
