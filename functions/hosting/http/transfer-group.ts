import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { positiveInt } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { groupDetailView, visibleGroup } from "../domain/groups.js";
import { sharedWithGroupsView } from "../domain/group-shares.js";
import { groupTransferError, transferGroup } from "../domain/group-transfer.js";
import { groupParams } from "./schemas.js";

/**
 * GitLab's group transfer: the group's Owner (`admin_group`, else 403) moves it under `group_id`,
 * where it needs Maintainer or above (creating subgroups), or to the top level without it.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Transfer a group to a new parent group",
    access: "write",
    status: 201,
    params: groupParams,
    body: z.object({ group_id: z.optional(positiveInt()) }),
  },
  async ({ c, principal, params, body }) => {
    const { group, level } = await visibleGroup(principal, params.id);
    if (level < AccessLevel.owner) throw forbidden();
    const parent = body.group_id === undefined ? undefined : await visibleGroup(principal, String(body.group_id));
    if (parent && parent.level < AccessLevel.maintainer) throw groupTransferError("You don't have enough permissions.");
    const moved = await transferGroup(group, parent?.group);
    return groupDetailView(moved, baseUrl(c), await sharedWithGroupsView(principal, moved));
  },
);
export const handler = lambda(endpoint);
