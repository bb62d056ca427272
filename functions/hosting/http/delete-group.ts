import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { visibleGroup } from "../domain/groups.js";
import { groupHasChildren } from "../domain/group-listing.js";
import { deleteEmptyGroupNow, scheduleGroupDeletion } from "../domain/group-deletion.js";
import { groupParams } from "./schemas.js";

/**
 * Owner; 202 as GitLab. An empty group is deleted now, its wiki repository under the write path (a
 * wiki being moved answers the read-only error). A group with projects or subgroups is marked, and
 * the `group-deletions` job deletes its contents and then the group (`domain/group-deletion.ts`).
 */
export const endpoint = defineEndpoint({ summary: "Delete a group", access: "write", params: groupParams }, async ({ c, principal, params }) => {
  const { group, level } = await visibleGroup(principal, params.id);
  if (level < AccessLevel.owner) throw forbidden();
  if (await groupHasChildren(group.id)) {
    await scheduleGroupDeletion(group);
    return c.json({ message: "202 Accepted" }, 202);
  }
  await deleteEmptyGroupNow(group);
  return c.json({ message: "202 Accepted" }, 202);
});
export const handler = lambda(endpoint);
