/** Containers and memberships for the member, access request and sharing tests, through the API. */
import { expect } from "vitest";
import { api, newUser, unique } from "../support/api.js";

export type User = Awaited<ReturnType<typeof newUser>>;

export async function newGroup(token: string, body: Record<string, unknown> = {}): Promise<{ id: number; name: string; full_path: string }> {
  const res = await api("POST", "/api/v4/groups", { token, body: { name: unique("Team"), path: unique("grp"), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function newProject(token: string, body: Record<string, unknown> = {}): Promise<{ id: number; path_with_namespace: string }> {
  const res = await api("POST", "/api/v4/projects", { token, body: { name: unique("proj"), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function addMember(token: string, kind: "groups" | "projects", id: number, userId: number, level: number) {
  const res = await api("POST", `/api/v4/${kind}/${id}/members`, { token, body: { user_id: userId, access_level: level } });
  expect(res.status, res.text).toBe(201);
}

export async function share(token: string, projectId: number, groupId: number, groupAccess: number, expiresAt?: string) {
  const res = await api("POST", `/api/v4/projects/${projectId}/share`, { token, body: { group_id: groupId, group_access: groupAccess, expires_at: expiresAt } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** One user per GitLab role on `projectId` (direct members, added by `ownerToken`), and a stranger. */
export async function projectRoles(ownerToken: string, projectId: number) {
  const [guest, reporter, developer, maintainer, owner, stranger] = await Promise.all(Array.from({ length: 6 }, () => newUser()));
  const levels: Array<[User, number]> = [[guest!, 10], [reporter!, 20], [developer!, 30], [maintainer!, 40], [owner!, 50]];
  for (const [user, level] of levels) await addMember(ownerToken, "projects", projectId, user.id, level);
  return { guest: guest!, reporter: reporter!, developer: developer!, maintainer: maintainer!, owner: owner!, stranger: stranger! };
}

export const idsOf = (body: Array<{ id: number }>) => body.map((x) => x.id);
