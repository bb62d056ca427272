/**
 * GitLab's `GET /groups/:id/projects` (`GroupProjectsFinder`): the projects in a group (with
 * `include_subgroups`, in every group below it too) and, unless `with_shared=false`, the projects
 * shared with it, that the caller can see. The group's projects are its `CHILD#project#` entries (one
 * Query per group), the shared ones the group's side of the share links (one Query); the projects
 * themselves are one batched read. A member of the group (or an administrator) sees every project of
 * the group and its subgroups without a level lookup; anyone else's access is worked out per project
 * only where visibility alone does not decide it.
 */
import { getItems } from "../../platform/db/table.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel, canSee } from "./access.js";
import { containerKey } from "./keys.js";
import { levelOnProject, type Project } from "./projects.js";
import { sharesWithGroup } from "./project-shares.js";
import type { Group } from "./groups.js";
import { groupSubtree } from "./group-listing.js";

export interface GroupProjectFilters {
  subgroups: boolean;
  shared: boolean;
  /** Narrows before any level is looked up (archived, visibility, search, features). */
  keep: (p: Project) => boolean;
  /** The caller's own least level on each project (its memberships, not an administrator's reach). */
  minAccessLevel?: number;
}

/**
 * The projects of the group the caller can see, unordered. `groupLevel` is the caller's level on the
 * group (administrators count as Owners): inherited membership reaches every project below it.
 */
export async function groupProjects(principal: Principal | undefined, group: Group, groupLevel: number, f: GroupProjectFilters): Promise<Project[]> {
  const [own, shares] = await Promise.all([groupSubtree(group.id, f.subgroups).then((tree) => tree.projects), f.shared ? sharesWithGroup(group.id) : []]);
  const ownIds = new Set(own);
  const ids = [...new Set([...own, ...shares.map((s) => s.projectId)])];
  const projects = (await getItems<Project>(ids.map((id) => containerKey("project", id)))).filter((p): p is Project => !!p && f.keep(p));
  // `min_access_level` counts the caller's own memberships, as GitLab's authorized projects do.
  const asMember = principal?.user.admin ? { ...principal, user: { ...principal.user, admin: false } } : principal;
  const levels = await Promise.all(
    projects.map((p) => {
      const inherited = ownIds.has(p.id) && groupLevel >= AccessLevel.guest;
      if (f.minAccessLevel !== undefined) return principal ? levelOnProject(asMember, p) : 0;
      if (inherited || principal?.user.admin || canSee(principal, p.visibility, 0)) return AccessLevel.guest;
      return levelOnProject(principal, p);
    }),
  );
  return projects.filter((p, i) => {
    const level = levels[i]!;
    if (f.minAccessLevel !== undefined) return level >= f.minAccessLevel;
    return canSee(principal, p.visibility, level);
  });
}
