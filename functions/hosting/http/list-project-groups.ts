import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, commaSeparatedIds, idArray, pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { activeShares } from "../domain/access.js";
import { groupView } from "../domain/groups.js";
import { visibleGroupsAmong } from "../domain/group-listing.js";
import { visibleProject } from "../domain/projects.js";
import { projectParams } from "./schemas.js";


/**
 * GitLab's `GET /projects/:id/groups`: the project's group and its ancestors that the caller can see
 * (a personal project has none), by id; `with_shared` adds the groups the project is shared with (at
 * `shared_min_access_level` or above). Groups the caller cannot see are always left out, so
 * `shared_visible_only` changes nothing.
 */
export const endpoint = defineEndpoint(
  {
    summary: "The groups of a project",
    access: "public",
    params: projectParams,
    query: z.object({
      ...pageQuery,
      search: z.optional(z.string().check(z.maxLength(255))),
      skip_groups: z.optional(commaSeparatedIds()),
      with_shared: z.optional(bool()),
      shared_visible_only: z.optional(bool()),
      shared_min_access_level: z.optional(z.enum(["10", "20", "30", "40", "50"])),
    }),
  },
  async ({ c, principal, params, query }) => {
    const skip = new Set(idArray(query.skip_groups, c.req.queries("skip_groups[]")));
    const { project } = await visibleProject(principal, params.id);
    const minShared = Number(query.shared_min_access_level ?? 0);
    const shared = query.with_shared ? activeShares(project).filter((s) => s.groupAccess >= minShared).map((s) => s.withGroupId) : [];
    const visible = await visibleGroupsAmong(principal, [...project.namespace.groupIds, ...shared], { search: query.search || undefined, skip });
    return slicePage(c, pageRequest(query), visible).map((g) => publicGroupDetails(groupView(g, baseUrl(c))));
  },
);
export const handler = lambda(endpoint);

/** GitLab's `PublicGroupDetails` entity, the fields this list shows. */
const publicGroupDetails = ({ id, web_url, name, avatar_url, full_name, full_path }: ReturnType<typeof groupView>) => ({ id, web_url, name, avatar_url, full_name, full_path });
