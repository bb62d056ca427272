/** What the group lists share: GitLab's `search` and `skip_groups` filters, and the subgroup routes. */
import * as z from "zod/mini";
import type { Context } from "hono";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { commaSeparatedIds, idArray, pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { groupView, visibleGroup } from "../domain/groups.js";
import { listSubgroups, type GroupFilters } from "../domain/group-listing.js";
import { groupParams } from "./schemas.js";

export const groupListQuery = z.object({
  ...pageQuery,
  search: z.optional(z.string().check(z.maxLength(255))),
  skip_groups: z.optional(commaSeparatedIds()),
});

export function groupFilters(c: Context, query: z.output<typeof groupListQuery>): GroupFilters {
  const skip = idArray(query.skip_groups, c.req.queries("skip_groups[]"));
  return { search: query.search || undefined, skip: skip.length ? new Set(skip) : undefined };
}

/** `GET /groups/:id/subgroups` (children) and `/descendant_groups` (every depth): those the caller can see, by id. */
export const subgroupsEndpoint = (descendants: boolean) =>
  defineEndpoint(
    { summary: descendants ? "List a group's descendant groups" : "List a group's subgroups", access: "public", params: groupParams, query: groupListQuery },
    async ({ c, principal, params, query }) => {
      const { group } = await visibleGroup(principal, params.id);
      const groups = await listSubgroups(principal, group, descendants, groupFilters(c, query));
      const page = pageRequest(query);
      setPageHeaders(c, page, groups.length > page.offset + page.perPage, groups.length);
      return groups.slice(page.offset, page.offset + page.perPage).map((g) => groupView(g, baseUrl(c)));
    },
  );
