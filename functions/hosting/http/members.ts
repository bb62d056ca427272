/** Shared behaviour of the project and group member routes. */
import * as z from "zod/mini";
import type { Context } from "hono";
import { commaSeparatedIds, idArray, pageQuery, positiveInt } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders, slicePage, type PageRequest } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forbidden, notFound } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel, activeShares } from "../domain/access.js";
import { accessLevel } from "./schemas.js";
import { visibleProject } from "../domain/projects.js";
import { visibleGroup } from "../domain/groups.js";
import { addMember, findMember, listAllMembers, listMembers, listMembersByIds, memberView, removeMember, updateMember, type MemberKind } from "../domain/members.js";

export const addMemberBody = z.object({
  user_id: positiveInt(),
  access_level: accessLevel(),
  expires_at: z.optional(z.iso.date()),
});

/**
 * The container, the caller's level on it, the groups its members inherit from (nearest first) and
 * the groups a project itself is shared with (a group's own shares are those of its chain).
 */
export async function container(kind: MemberKind, principal: Principal | undefined, id: string) {
  if (kind === "project") {
    const { project, level } = await visibleProject(principal, id);
    return { id: project.id, level, groupIds: project.namespace.groupIds, shares: activeShares(project) };
  }
  const { group, level } = await visibleGroup(principal, id);
  return { id: group.id, level, groupIds: [group.id, ...group.ancestorIds], shares: [] };
}

/** Member list queries: pages, and GitLab's `user_ids` (`user_ids[]=1&user_ids[]=2` or `user_ids=1,2`). */
export const memberListQuery = z.object({ ...pageQuery, user_ids: z.optional(commaSeparatedIds()) });
const userIdsOf = (c: Context, query: z.output<typeof memberListQuery>) => {
  const ids = idArray(query.user_ids, c.req.queries("user_ids[]"));
  return ids.length ? ids : undefined;
};

export async function list(kind: MemberKind, c: Context, principal: Principal, id: string, query: z.output<typeof memberListQuery>) {
  const target = await container(kind, principal, id);
  const page = pageRequest(query);
  const userIds = userIdsOf(c, query);
  if (userIds) return paged(c, page, await listMembersByIds(kind, target.id, userIds));
  const { members, hasMore, total } = await listMembers(kind, target.id, page.offset, page.perPage);
  setPageHeaders(c, page, hasMore, total, members.length);
  return members.map((m) => memberView(m, baseUrl(c)));
}

/** `GET …/members/all`: direct, inherited and shared-group members, one entry per user. */
export async function listAll(kind: MemberKind, c: Context, principal: Principal, id: string, query: z.output<typeof memberListQuery>) {
  const target = await container(kind, principal, id);
  return paged(c, pageRequest(query), await listAllMembers(kind, target.id, target.groupIds, userIdsOf(c, query), target.shares));
}

/** `GET …/members/all/:user_id`: one user's effective membership, as `members/all` lists it; GitLab's `find_by!` 404 without one. */
export async function getAll(kind: MemberKind, c: Context, principal: Principal, id: string, userId: number) {
  const target = await container(kind, principal, id);
  const [member] = await listAllMembers(kind, target.id, target.groupIds, [userId], target.shares);
  if (!member) throw notFound();
  return memberView(member, baseUrl(c));
}

function paged(c: Context, page: PageRequest, members: Parameters<typeof memberView>[0][]) {
  return slicePage(c, page, members).map((m) => memberView(m, baseUrl(c)));
}

export async function get(kind: MemberKind, c: Context, principal: Principal, id: string, userId: number) {
  const target = await container(kind, principal, id);
  return memberView(await findMember(kind, target.id, userId), baseUrl(c));
}

/** `member_role_id` is Ultimate's custom roles: accepted, and without effect here. */
export const updateMemberBody = z.object({ access_level: accessLevel(), expires_at: z.optional(z.nullable(z.iso.date())), member_role_id: z.optional(positiveInt()) });

/** Maintainer+ (403 otherwise), within the rules of `addMember`. */
export async function update(kind: MemberKind, c: Context, principal: Principal, id: string, userId: number, body: z.output<typeof updateMemberBody>) {
  const target = await container(kind, principal, id);
  if (target.level < AccessLevel.maintainer) throw forbidden();
  const updated = await updateMember(kind, target.id, target.level, userId, { accessLevel: body.access_level, expiresAt: body.expires_at });
  return memberView(updated, baseUrl(c));
}

export async function add(kind: MemberKind, c: Context, principal: Principal, id: string, body: z.output<typeof addMemberBody>) {
  const target = await container(kind, principal, id);
  if (target.level < AccessLevel.maintainer) throw forbidden();
  const added = await addMember(kind, target.id, target.level, { userId: body.user_id, accessLevel: body.access_level, expiresAt: body.expires_at }, principal.user);
  return c.json(memberView(added, baseUrl(c)), 201);
}

export async function remove(kind: MemberKind, c: Context, principal: Principal, id: string, userId: number) {
  const target = await container(kind, principal, id);
  if (target.level < AccessLevel.maintainer && userId !== principal.user.id) throw forbidden();
  await removeMember(kind, target.id, userId, target.level);
  return c.body(null, 204);
}
