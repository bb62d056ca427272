/** Shared behaviour of the project and group member routes. */
import * as z from "zod/mini";
import type { Context } from "hono";
import { positiveInt } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forbidden } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel, ACCESS_LEVELS } from "../domain/access.js";
import { visibleProject } from "../domain/projects.js";
import { visibleGroup } from "../domain/groups.js";
import { addMember, listMembers, memberView, removeMember, type MemberKind } from "../domain/members.js";

export const addMemberBody = z.object({
  user_id: positiveInt(),
  access_level: z.pipe(positiveInt(), z.union(ACCESS_LEVELS.map((l) => z.literal(l)) as [z.ZodMiniLiteral<10>, z.ZodMiniLiteral<20>, z.ZodMiniLiteral<30>, z.ZodMiniLiteral<40>, z.ZodMiniLiteral<50>])),
  expires_at: z.optional(z.iso.date()),
});

async function container(kind: MemberKind, principal: Principal | undefined, id: string) {
  if (kind === "project") {
    const { project, level } = await visibleProject(principal, id);
    return { id: project.id, level };
  }
  const { group, level } = await visibleGroup(principal, id);
  return { id: group.id, level };
}

export async function list(kind: MemberKind, c: Context, principal: Principal, id: string, query: { page?: number; per_page?: number }) {
  const target = await container(kind, principal, id);
  const page = pageRequest(query);
  const { members, hasMore, total } = await listMembers(kind, target.id, page.offset, page.perPage);
  setPageHeaders(c, page, hasMore, total);
  return members.map((m) => memberView(m, baseUrl(c)));
}

export async function add(kind: MemberKind, c: Context, principal: Principal, id: string, body: z.output<typeof addMemberBody>) {
  const target = await container(kind, principal, id);
  if (target.level < AccessLevel.maintainer) throw forbidden();
  const added = await addMember(kind, target.id, target.level, { userId: body.user_id, accessLevel: body.access_level, expiresAt: body.expires_at }, principal.user.id);
  return c.json(memberView(added, baseUrl(c)), 201);
}

export async function remove(kind: MemberKind, c: Context, principal: Principal, id: string, userId: number) {
  const target = await container(kind, principal, id);
  if (target.level < AccessLevel.maintainer && userId !== principal.user.id) throw forbidden();
  await removeMember(kind, target.id, userId, target.level);
  return c.body(null, 204);
}
