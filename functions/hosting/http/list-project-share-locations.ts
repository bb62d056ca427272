import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders, slicePage } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { AccessLevel } from "../domain/access.js";
import { visibleProject } from "../domain/projects.js";
import { groupView, type Group } from "../domain/groups.js";
import { groupIdsReachedBy, listGroups, visibleGroupsAmong } from "../domain/group-listing.js";
import { sharingLocked } from "../domain/project-shares.js";
import { projectParams } from "./schemas.js";

/**
 * GitLab's `GET /projects/:id/share_locations` (`Groups::AcceptingProjectSharesFinder`): the groups
 * the project can be shared with — every group for an administrator, the groups the caller belongs
 * to for anyone else — less the project's own group chain and the groups it is shared with already;
 * by id, `search`. None for a caller who may not share it (below Maintainer) or while its namespace
 * locks sharing.
 */
export const endpoint = defineEndpoint(
  { summary: "List the groups a project can be shared with", access: "read", params: projectParams, query: z.object({ ...pageQuery, search: z.optional(z.string().check(z.maxLength(255))) }) },
  async ({ c, principal, params, query }) => {
    const { project, level } = await visibleProject(principal, params.id);
    const page = pageRequest(query);
    let groups: Group[] = [];
    if (level >= AccessLevel.maintainer && !(await sharingLocked(project))) {
      const filters = { search: query.search || undefined, skip: new Set([...project.namespace.groupIds, ...Object.keys(project.shares ?? {}).map(Number)]) };
      if (principal.user.admin) {
        const listed = await listGroups(principal, page.offset, page.perPage, filters);
        setPageHeaders(c, page, listed.hasMore, listed.total, listed.groups.length);
        return listed.groups.map((g) => groupView(g, baseUrl(c)));
      }
      groups = await visibleGroupsAmong(principal, await groupIdsReachedBy(principal.user.id), filters);
    }
    return slicePage(c, page, groups).map((g) => groupView(g, baseUrl(c)));
  },
);
export const handler = lambda(endpoint);
