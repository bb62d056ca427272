import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { deleteGroup, visibleGroup } from "../domain/groups.js";
import { groupHasChildren } from "../domain/group-listing.js";
import { removeRepository } from "../domain/git/index.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { groupParams } from "./schemas.js";

/**
 * Owner; 202 as GitLab. Only empty groups are deleted (see deleteGroup). The wiki repository is
 * removed under the write path, so a group whose wiki is being moved answers the read-only error.
 */
export const endpoint = defineEndpoint({ summary: "Delete a group", access: "write", params: groupParams }, async ({ c, principal, params }) => {
  const { group, level } = await visibleGroup(principal, params.id);
  if (level < AccessLevel.owner) throw forbidden();
  const hasChildren = await groupHasChildren(group.id);
  await withRepositoryWrite(
    "group",
    group.id,
    (wiki) => deleteGroup(group, hasChildren, async () => (wiki ? removeRepository(wiki.storage, wiki.relativePath) : undefined)),
    { requireRepository: false },
  );
  return c.json({ message: "202 Accepted" }, 202);
});
export const handler = lambda(endpoint);
