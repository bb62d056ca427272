import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { groupView, visibleGroup, type Group } from "../domain/groups.js";
import { groupIdsSharedWith } from "../domain/group-shares.js";
import { visibleGroupsAmong } from "../domain/group-listing.js";
import { accessLevel, groupParams, visibility } from "./schemas.js";
import { groupFilters, groupListQuery } from "./group-lists.js";

const ORDERS = { name: (g: Group) => g.name.toLowerCase(), path: (g: Group) => g.path.toLowerCase(), id: (g: Group) => g.id } as const;

/**
 * GitLab's `GET /groups/:id/groups/shared`: the groups that invited this one (shared themselves with
 * it) and that the caller can see; `order_by` name (default), path, id or `similarity` (ordered as
 * name: there is no search ranking here), `sort` asc (default) or desc.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List the groups a group was invited to",
    access: "public",
    params: groupParams,
    query: z.extend(groupListQuery, {
      visibility: z.optional(visibility),
      min_access_level: z.optional(accessLevel()),
      order_by: z._default(z.enum(["name", "path", "id", "similarity"]), "name"),
      sort: z._default(z.enum(["asc", "desc"]), "asc"),
      with_custom_attributes: z.optional(bool()),
    }),
  },
  async ({ c, principal, params, query }) => {
    const { group } = await visibleGroup(principal, params.id);
    const groups = await visibleGroupsAmong(principal, await groupIdsSharedWith(group.id), { ...groupFilters(c, query), visibility: query.visibility, minAccessLevel: query.min_access_level });
    const key = ORDERS[query.order_by === "similarity" ? "name" : query.order_by];
    const ordered = groups.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id) * (query.sort === "asc" ? 1 : -1));
    return slicePage(c, pageRequest(query), ordered).map((g) => groupView(g, baseUrl(c)));
  },
);
export const handler = lambda(endpoint);
