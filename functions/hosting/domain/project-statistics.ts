/**
 * GitLab's project `statistics` (`GET /projects/:id?statistics=true`), from the sizes the write path
 * records (`repository-size.ts`): the project's repository, its wiki, and its snippets' repositories
 * (one Query of the project's snippet index). Features this service does not have (LFS, CI
 * artifacts, packages, uploads, the container registry) hold no bytes here, so they are 0.
 * `commit_count` is not given: GitLab refreshes it in the background, and counting it here would
 * walk the history on every write.
 */
import { GSI1, queryAll } from "../../platform/db/table.js";
import { snippetsOfProjectIndex } from "./keys.js";
import { sizesOf, type RecordedSizes } from "./repository-size.js";

type Located = RecordedSizes & { storage?: string; relativePath?: string };

export interface ProjectStatistics {
  storage_size: number;
  repository_size: number;
  wiki_size: number;
  lfs_objects_size: number;
  job_artifacts_size: number;
  pipeline_artifacts_size: number;
  packages_size: number;
  snippets_size: number;
  uploads_size: number;
  container_registry_size: number;
}

export async function projectStatistics(project: Located & { id: number }): Promise<ProjectStatistics> {
  const [own, snippets] = await Promise.all([
    sizesOf("project", project),
    queryAll<Located>({ index: GSI1, pk: snippetsOfProjectIndex(project.id, 0).gsi1pk, projection: ["storage", "relativePath", "repositorySize"] }),
  ]);
  const snippetSizes = await Promise.all(snippets.map((s) => sizesOf("snippet", s)));
  const snippets_size = snippetSizes.reduce((sum, s) => sum + s.repositorySize, 0);
  return {
    storage_size: own.repositorySize + own.wikiSize + snippets_size,
    repository_size: own.repositorySize,
    wiki_size: own.wikiSize,
    lfs_objects_size: 0,
    job_artifacts_size: 0,
    pipeline_artifacts_size: 0,
    packages_size: 0,
    snippets_size,
    uploads_size: 0,
    container_registry_size: 0,
  };
}
