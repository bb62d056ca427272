/**
 * Forks: a new project whose repository is a full copy of its source's, made under the source's
 * write lease (the one write path, `write-path.ts`), as backups copy a repository: no write lands in
 * the source while it is copied, and a source being moved (read-only) is refused with the 409 every
 * write gets. The copy shares no objects with its source (no object pools).
 */
import { queryAll } from "../../platform/db/table.js";
import type { Principal } from "../../identity/domain/auth.js";
import { replicate } from "./git/index.js";
import { visibilityRank, type Visibility } from "./access.js";
import { FORK_LINK_PREFIX, forkLinkKey } from "./keys.js";
import type { Namespace } from "./namespaces.js";
import type { Group } from "./groups.js";
import { createProject, PathTakenError, visibleProjects, type Project } from "./projects.js";
import { withRepositoryWrite } from "./write-path.js";

/**
 * GitLab's fork visibility: never more visible than the source or the target group, nor than the
 * visibility asked for.
 */
export function forkVisibility(source: Visibility, namespaceVisibility: Visibility | undefined, asked: Visibility | undefined): Visibility {
  const candidates = [source, namespaceVisibility, asked].filter((v): v is Visibility => !!v);
  return candidates.reduce((lowest, v) => (visibilityRank(v) < visibilityRank(lowest) ? v : lowest));
}

export async function forkProject(
  principal: Principal,
  source: Project,
  ns: Namespace,
  input: { name?: string; path?: string; description?: string; visibility: Visibility; group?: Pick<Group, "branchProtection"> },
): Promise<Project> {
  try {
    return await withRepositoryWrite("project", source.id, (location) =>
      createProject(principal, ns, {
        name: input.name ?? source.name,
        path: input.path ?? source.path,
        description: input.description ?? source.description,
        visibility: input.visibility,
        defaultBranch: source.defaultBranch,
        features: source.features,
        group: input.group,
        fork: {
          sourceId: source.id,
          copyInto: (storage, rel) => replicate({ storage: location!.storage, rel: location!.relativePath }, { storage, rel }, { kind: "project" }),
        },
      }),
    );
  } catch (err) {
    // GitLab answers a fork whose path is taken with 409 and the validation messages.
    if (err instanceof PathTakenError) throw new PathTakenError(409);
    throw err;
  }
}

/** The forks of a project that the caller may see, with the caller's level, newest first. */
export async function listForks(principal: Principal | undefined, sourceId: number): Promise<Array<{ project: Project; level: number }>> {
  const links = await queryAll<{ projectId: number }>({ pk: forkLinkKey(sourceId, 0).pk, skPrefix: FORK_LINK_PREFIX, ascending: false, projection: ["projectId"] });
  return visibleProjects(principal, links.map((l) => l.projectId));
}

/** The source of a fork as the caller may see it; undefined when it is not a fork, is gone, or is hidden. */
export async function visibleForkSource(principal: Principal | undefined, project: Project): Promise<Project | undefined> {
  if (!project.forkedFromId) return undefined;
  const [found] = await visibleProjects(principal, [project.forkedFromId]);
  return found?.project;
}
