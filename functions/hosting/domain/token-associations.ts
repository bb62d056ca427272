/**
 * GitLab's `GET /personal_access_tokens/self/associations`: the groups and projects the token's
 * user reaches by membership, each with the user's level. Groups: direct memberships, groups shared
 * with them and every subgroup below (`groupIdsReachedBy`); projects: direct memberships, projects
 * of those groups and projects shared with the user's groups. An administrator's reach beyond its
 * memberships is not listed (GitLab lists authorized groups and projects).
 */
import { getItems, queryAll, GSI1 } from "../../platform/db/table.js";
import { activeLevel, activeShares, groupChainLevel, type MemberRecord } from "./access.js";
import { containerKey, membershipsOfUserIndex } from "./keys.js";
import { groupIdsReachedBy, projectIdsThroughGroups } from "./group-listing.js";
import { projectLevelsThroughShares } from "./project-shares.js";
import type { Group } from "./groups.js";
import type { Project } from "./projects.js";

export interface Associations {
  groups: Array<{ group: Group; level: number }>;
  projects: Array<{ project: Project; direct: number; inherited: number }>;
}

export async function associationsOf(userId: number, minLevel: number): Promise<Associations> {
  const [groupIds, direct, throughGroups, shared] = await Promise.all([
    groupIdsReachedBy(userId),
    queryAll<MemberRecord & { gsi1sk: string }>({ index: GSI1, pk: membershipsOfUserIndex("project", userId, 0).gsi1pk }),
    projectIdsThroughGroups(userId, Number.MAX_SAFE_INTEGER),
    projectLevelsThroughShares(userId),
  ]);
  const directLevels = new Map(direct.map((m) => [Number(m.gsi1sk), activeLevel(m)]));
  const projectIds = [...new Set([...directLevels.keys(), ...throughGroups, ...shared.keys()])];
  const [groupItems, projectItems] = await Promise.all([
    getItems<Group>(groupIds.map((id) => containerKey("group", id))),
    getItems<Project>(projectIds.map((id) => containerKey("project", id))),
  ]);
  const groups = await Promise.all(
    groupItems.filter((g): g is Group => !!g).map(async (group) => ({ group, level: await groupChainLevel([group.id, ...group.ancestorIds], userId) })),
  );
  const projects = await Promise.all(
    projectItems
      .filter((p): p is Project => !!p)
      .map(async (project) => ({ project, direct: directLevels.get(project.id) ?? 0, inherited: await groupChainLevel(project.namespace.groupIds, userId, activeShares(project)) })),
  );
  const least = Math.max(1, minLevel);
  return {
    groups: groups.filter((g) => g.level >= least).sort((a, b) => a.group.id - b.group.id),
    projects: projects.filter((p) => Math.max(p.direct, p.inherited) >= least).sort((a, b) => a.project.id - b.project.id),
  };
}
