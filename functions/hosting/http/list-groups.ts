import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { listGroups } from "../domain/group-listing.js";
import { groupView } from "../domain/groups.js";
import { groupFilters, groupListQuery } from "./group-lists.js";

/** Admins see every group; others their groups plus public/internal ones. `X-Total` where it is known without counting. */
export const endpoint = defineEndpoint({ summary: "List groups", access: "public", query: groupListQuery }, async ({ c, principal, query }) => {
  const page = pageRequest(query);
  const { groups, hasMore, total } = await listGroups(principal, page.offset, page.perPage, groupFilters(c, query));
  setPageHeaders(c, page, hasMore, total, groups.length);
  return groups.map((g) => groupView(g, baseUrl(c)));
});
export const handler = lambda(endpoint);
