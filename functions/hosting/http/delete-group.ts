import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { withReservedSpace } from "../../platform/space-reserve.js";
import { AccessLevel } from "../domain/access.js";
import { visibleGroup } from "../domain/groups.js";
import { groupHasChildren } from "../domain/group-listing.js";
import { deleteEmptyGroupNow, deleteMarkedGroup, scheduleGroupDeletion } from "../domain/group-deletion.js";
import { groupParams } from "./schemas.js";

/**
 * Owner; 202 as GitLab. An empty group is deleted now, its wiki repository under the write path (a
 * wiki being moved answers the read-only error). A group with projects or subgroups is marked, its
 * contents deleted for up to 5 s, and the `group-deletions` job finishes what is left
 * (`domain/group-deletion.ts`).
 */
/** How long the request itself deletes a marked tree before leaving the rest to the job. */
const INLINE_DELETION_MS = 5_000;

export const endpoint = defineEndpoint({ summary: "Delete a group", access: "write", params: groupParams }, async ({ c, principal, params }) => {
  const { group, level } = await visibleGroup(principal, params.id);
  if (level < AccessLevel.owner) throw forbidden();
  // Deleting is how an administrator makes room: it runs with the space reserve, so a full disk does not stop it.
  await withReservedSpace(async () => {
    if (!(await groupHasChildren(group.id))) return deleteEmptyGroupNow(group);
    await scheduleGroupDeletion(group);
    // A small tree is gone before the answer, as GitLab's worker is usually done within seconds;
    // whatever is left after a few seconds (or waits for a move) is the job's.
    await deleteMarkedGroup(group.id, Date.now() + INLINE_DELETION_MS);
  });
  return c.json({ message: "202 Accepted" }, 202);
});
export const handler = lambda(endpoint);
