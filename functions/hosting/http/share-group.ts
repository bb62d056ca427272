import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { positiveInt } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { findGroup, groupDetailView, visibleGroup } from "../domain/groups.js";
import { shareGroup, sharedWithGroupsView } from "../domain/group-shares.js";
import { accessLevel, groupParams } from "./schemas.js";

/**
 * GitLab's `POST /groups/:id/share`: the group (Owner) shared with `group_id` (a group the caller can
 * see) at `group_access`, until `expires_at`; 201 with the group's detail.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Share a group with another group",
    access: "write",
    status: 201,
    params: groupParams,
    body: z.object({ group_id: positiveInt(), group_access: accessLevel(), expires_at: z.optional(z.nullable(z.iso.date())) }),
  },
  async ({ c, principal, params, body }) => {
    const shared = await visibleGroup(principal, params.id);
    const { group: withGroup } = await visibleGroup(principal, String(body.group_id));
    await shareGroup(principal, shared, withGroup, { groupAccess: body.group_access, expiresAt: body.expires_at ?? undefined });
    const group = (await findGroup(shared.group.id)) ?? shared.group; // with its new share
    return groupDetailView(group, baseUrl(c), await sharedWithGroupsView(principal, group));
  },
);
export const handler = lambda(endpoint);
