import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError } from "../../platform/http/errors.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { associationsOf } from "../domain/token-associations.js";
import { projectView } from "../domain/project-view.js";
import { accessLevel } from "./schemas.js";

/**
 * GitLab's `GET /personal_access_tokens/self/associations` (`min_access_level`, `page`,
 * `per_page`): the groups and projects the token's user is a member of, the same page of each.
 * A browser session has no token of its own: GitLab's 405 for a request without a personal access
 * token. There are no organizations here, so groups carry no `organization_id`.
 */
export const endpoint = defineEndpoint(
  { summary: "List the groups and projects the token's user can access", access: "read", query: z.object({ ...pageQuery, min_access_level: z.optional(accessLevel()) }) },
  async ({ c, principal, query }) => {
    if (principal.session) throw new ApiError(405, { message: "405 Method Not Allowed" });
    const page = pageRequest(query);
    const found = await associationsOf(principal.user.id, query.min_access_level ?? 0);
    const end = page.offset + page.perPage;
    setPageHeaders(c, page, found.groups.length > end || found.projects.length > end);
    const base = baseUrl(c);
    return {
      groups: found.groups.slice(page.offset, end).map(({ group, level }) => ({
        id: group.id,
        web_url: `${base}/groups/${group.fullPath}`,
        name: group.name,
        parent_id: group.parentId,
        access_levels: level,
        visibility: group.visibility,
      })),
      projects: found.projects.slice(page.offset, end).map(({ project, direct, inherited }) => {
        const v = projectView(project, base, { admin: false });
        return {
          id: v.id,
          description: v.description,
          name: v.name,
          name_with_namespace: v.name_with_namespace,
          path: v.path,
          path_with_namespace: v.path_with_namespace,
          created_at: v.created_at,
          access_levels: { project_access_level: direct || null, group_access_level: inherited || null },
          visibility: v.visibility,
          web_url: v.web_url,
          namespace: v.namespace,
        };
      }),
    };
  },
);
export const handler = lambda(endpoint);
