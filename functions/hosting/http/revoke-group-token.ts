import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError, forbidden } from "../../platform/http/errors.js";
import { getItems, queryAll, GSI1 } from "../../platform/db/table.js";
import { findToken, revokeToken, tokenView } from "../../identity/domain/tokens.js";
import { activeLevel, AccessLevel, type MemberRecord } from "../domain/access.js";
import { visibleGroup, type Group } from "../domain/groups.js";
import { containerKey, membershipsOfUserIndex } from "../domain/keys.js";
import type { Project } from "../domain/projects.js";
import { groupParams } from "./schemas.js";

/** Whether the user is a member of the group, a group below it, or a project in either. */
async function reachesHierarchy(userId: number, rootId: number): Promise<boolean> {
  const [groups, projects] = await Promise.all([
    queryAll<MemberRecord & { gsi1sk: string }>({ index: GSI1, pk: membershipsOfUserIndex("group", userId, 0).gsi1pk }),
    queryAll<MemberRecord & { gsi1sk: string }>({ index: GSI1, pk: membershipsOfUserIndex("project", userId, 0).gsi1pk }),
  ]);
  const ids = (list: typeof groups) => list.filter((m) => activeLevel(m) > 0).map((m) => Number(m.gsi1sk));
  const [groupItems, projectItems] = await Promise.all([
    getItems<Group>(ids(groups).map((id) => containerKey("group", id))),
    getItems<Project>(ids(projects).map((id) => containerKey("project", id))),
  ]);
  return groupItems.some((g) => g && (g.id === rootId || g.ancestorIds.includes(rootId))) || projectItems.some((p) => p?.namespace.groupIds.includes(rootId));
}

/**
 * GitLab's `POST /groups/:id/tokens/revoke` (its group-agnostic token revocation): a top-level
 * group's Owners revoke a personal access token (the only kind of token here) given in plain text,
 * if its user is a member of the group, a subgroup or one of their projects. 200 with the token, also
 * when it was revoked already. Anything else (another kind of string, an unknown token, one without
 * access to the group, a subgroup) is GitLab's bare 404, which tells nothing about the token.
 */
export const endpoint = defineEndpoint(
  { summary: "Revoke a token with access to the group", access: "write", params: groupParams, body: z.object({ token: z.string().check(z.minLength(1), z.maxLength(256)) }) },
  async ({ c, principal, params, body }) => {
    const { group, level } = await visibleGroup(principal, params.id);
    if (level < AccessLevel.owner) throw forbidden();
    const token = group.parentId === null ? await findToken(body.token.trim()) : undefined;
    if (!token || !(await reachesHierarchy(token.userId, group.id))) throw new ApiError(404, { message: "404 Not Found" });
    if (!token.revoked) await revokeToken(token.hash);
    return c.json(tokenView({ ...token, revoked: true }), 200);
  },
);
export const handler = lambda(endpoint);
