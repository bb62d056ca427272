/**
 * Where a project's wiki repository lives: GitLab's `<project repository>.wiki.git`, beside the
 * project's own repository on the same storage. It exists once the first page was written, which
 * sets `wikiRepository` on the project item (under the project's write lease). Kept free of other
 * imports: storage moves, backup and the inventory read it too.
 */
import type { RepositoryLocation } from "./write-path.js";

/** `@hashed/ab/cd/<hash>.git` → `@hashed/ab/cd/<hash>.wiki.git`. */
export function projectWikiPath(projectRelativePath: string): string {
  if (!projectRelativePath.endsWith(".git")) throw new Error(`Not a repository path: ${JSON.stringify(projectRelativePath)}`);
  return `${projectRelativePath.slice(0, -".git".length)}.wiki.git`;
}

/** The wiki repository of a project item, if its first page was written. */
export function projectWikiLocation(project: { storage?: string; relativePath?: string; wikiRepository?: boolean }): RepositoryLocation | undefined {
  return project.wikiRepository && project.storage && project.relativePath ? { storage: project.storage, relativePath: projectWikiPath(project.relativePath) } : undefined;
}
