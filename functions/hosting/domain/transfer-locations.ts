/**
 * Where a group or project may be transferred to (GitLab's `transfer_locations`): the groups the
 * caller could move it into, by name. A group goes under a group the caller owns (an administrator:
 * any), never under itself, its descendants or its current parent (GitLab's
 * `AcceptingGroupTransfersFinder`); a project into a group the caller holds as Maintainer or above
 * through its memberships (GitLab's `UserGroupsFinder` with `transfer_projects`), other than its own.
 */
import { getItems, queryAll, GSI1 } from "../../platform/db/table.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel } from "./access.js";
import { allGroupsIndex, containerKey } from "./keys.js";
import { groupIdsReachedBy } from "./group-listing.js";
import { groupSearchText, groupView, type Group } from "./groups.js";

const byName = (a: Group, b: Group) => a.name.localeCompare(b.name) || a.id - b.id;
const matching = (search: string | undefined) => (g: Group) => !search || groupSearchText(g).includes(search.toLowerCase());

/** The groups with these ids that still exist. */
async function groupsOf(ids: number[]): Promise<Group[]> {
  return (await getItems<Group>(ids.map((id) => containerKey("group", id)))).filter((g): g is Group => !!g);
}

export async function groupTransferLocations(principal: Principal, group: Group, search?: string): Promise<Group[]> {
  const candidates = principal.user.admin
    ? await queryAll<Group>({ index: GSI1, pk: allGroupsIndex(0).gsi1pk })
    : // Only groups the user holds as Owner or above, inherited and shared (`groupIdsReachedBy` filters on the level).
      await groupsOf(await groupIdsReachedBy(principal.user.id, AccessLevel.owner));
  const excluded = (g: Group) => g.id === group.id || g.ancestorIds.includes(group.id) || g.id === group.parentId;
  return candidates.filter((g) => !excluded(g)).filter(matching(search)).sort(byName);
}

export async function projectTransferLocations(principal: Principal, currentGroupId: number | undefined, search?: string): Promise<Group[]> {
  const groups = await groupsOf(await groupIdsReachedBy(principal.user.id, AccessLevel.maintainer));
  return groups.filter((g) => g.id !== currentGroupId).filter(matching(search)).sort(byName);
}

/** GitLab's `PublicGroupDetails`: the group entity's identity fields. */
export function publicGroupView(g: Group, baseUrl: string) {
  const v = groupView(g, baseUrl);
  return { id: v.id, web_url: v.web_url, name: v.name, avatar_url: v.avatar_url, full_name: v.full_name, full_path: v.full_path };
}
