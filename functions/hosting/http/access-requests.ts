/**
 * Shared behaviour of the project and group access request routes (GitLab's `access_requests.md`):
 * who manages a container's members (a project's Maintainers and Owners, a group's Owners), who may
 * ask to join (someone who sees it and has no access, while `request_access_enabled` allows it).
 */
import * as z from "zod/mini";
import type { Context } from "hono";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forbidden } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel } from "../domain/access.js";
import { visibleProject } from "../domain/projects.js";
import { visibleGroup } from "../domain/groups.js";
import { memberView, type MemberKind } from "../domain/members.js";
import { accessRequesterView, approveAccessRequest, deleteAccessRequest, listAccessRequests, requestAccess } from "../domain/access-requests.js";
import { accessLevel } from "./schemas.js";

export const accessRequestListQuery = z.object({ ...pageQuery });
/** GitLab's default level for an approved request is Developer. */
export const approveBody = z.object({ access_level: z._default(accessLevel(), AccessLevel.developer) });

/** The container the caller may see, its level there, whether it manages the members, and the setting. */
async function target(kind: MemberKind, principal: Principal, id: string) {
  const found =
    kind === "project"
      ? await visibleProject(principal, id).then(({ project, level }) => ({ id: project.id, level, enabled: project.requestAccessEnabled ?? true }))
      : await visibleGroup(principal, id).then(({ group, level }) => ({ id: group.id, level, enabled: group.requestAccessEnabled ?? true }));
  return { ...found, manages: found.level >= (kind === "project" ? AccessLevel.maintainer : AccessLevel.owner) };
}

/** `GET …/access_requests`: managers of the members only (403). */
export async function list(kind: MemberKind, c: Context, principal: Principal, id: string, query: z.output<typeof accessRequestListQuery>) {
  const container = await target(kind, principal, id);
  if (!container.manages) throw forbidden();
  const page = pageRequest(query);
  const { requests, hasMore, total } = await listAccessRequests(kind, container.id, page.offset, page.perPage);
  setPageHeaders(c, page, hasMore, total, requests.length);
  return requests.map((r) => accessRequesterView(r, baseUrl(c)));
}

/**
 * `POST …/access_requests`: GitLab's `request_access` policy refuses (403) anyone with access already
 * (a member of it or of its groups, an administrator) and every request while the setting is off.
 */
export async function request(kind: MemberKind, c: Context, principal: Principal, id: string) {
  const container = await target(kind, principal, id);
  if (!container.enabled || container.level > AccessLevel.none) throw forbidden();
  return c.json(accessRequesterView(await requestAccess(kind, container.id, principal.user), baseUrl(c)), 201);
}

export async function approve(kind: MemberKind, c: Context, principal: Principal, id: string, userId: number, body: z.output<typeof approveBody>) {
  const container = await target(kind, principal, id);
  const member = await approveAccessRequest(kind, container.id, userId, body.access_level, { level: container.level, manages: container.manages, user: principal.user });
  return c.json(memberView(member, baseUrl(c)), 201);
}

export async function deny(kind: MemberKind, c: Context, principal: Principal, id: string, userId: number) {
  const container = await target(kind, principal, id);
  await deleteAccessRequest(kind, container.id, userId, { manages: container.manages, userId: principal.user.id });
  return c.body(null, 204);
}
