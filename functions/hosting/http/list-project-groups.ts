import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, commaSeparatedIds, idArray, pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { canSee } from "../domain/access.js";
import { findGroup, groupLevel, groupView, type Group } from "../domain/groups.js";
import { visibleProject } from "../domain/projects.js";
import { projectParams } from "./schemas.js";


/**
 * GitLab's `GET /projects/:id/groups`: the project's group and its ancestors that the caller can see
 * (a personal project has none), by id. Groups do not share projects here, so `with_shared` adds none.
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
    const needle = query.search?.toLowerCase();
    const groups = (await Promise.all(project.namespace.groupIds.filter((id) => !skip.has(id)).map(findGroup))).filter((g): g is Group => !!g);
    const visible: Group[] = [];
    for (const group of groups.sort((a, b) => a.id - b.id)) {
      if (needle && ![group.name, group.path].some((v) => v.toLowerCase().includes(needle))) continue;
      if (canSee(principal, group.visibility, await groupLevel(principal, group))) visible.push(group);
    }
    const page = pageRequest(query);
    setPageHeaders(c, page, visible.length > page.offset + page.perPage, visible.length);
    return visible.slice(page.offset, page.offset + page.perPage).map((g) => publicGroupDetails(groupView(g, baseUrl(c))));
  },
);
export const handler = lambda(endpoint);

/** GitLab's `PublicGroupDetails` entity, the fields this list shows. */
const publicGroupDetails = ({ id, web_url, name, avatar_url, full_name, full_path }: ReturnType<typeof groupView>) => ({ id, web_url, name, avatar_url, full_name, full_path });
